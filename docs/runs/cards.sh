#!/bin/sh
# The card-game matches of the README (run from docs/runs; T = the tabula binary).
T=${T:-../../target/release/tabula}
M="$T match --concurrency 1 --no-progress"
for s in ismcts pimc; do
  for b in rules random; do
    $M --game hearts -o hands=single --table ABBB --games 200 --seed 31 \
       --engine cmd=$T name=$s set.search=$s iterations=4000 \
       --engine cmd=$T name=$b set.search=$b \
       --record hearts-$s-$b.txt > hearts-$s-$b.out 2>> cards.err
  done
done
$M --game hearts -o hands=single --table ABBB --games 200 --seed 31 \
   --engine cmd=$T name=rules set.search=rules --engine cmd=$T name=random set.search=random \
   --record hearts-rules-random.txt > hearts-rules-random.out 2>> cards.err
$M --game wizard --table ABBB --games 100 --seed 32 \
   --engine cmd=$T name=ismcts set.search=ismcts iterations=2000 \
   --engine cmd=$T name=rules set.search=rules \
   --record wizard-ismcts-rules.txt > wizard-ismcts-rules.out 2>> cards.err
$M --game ninetynine --table ABB --games 150 --seed 33 \
   --engine cmd=$T name=ismcts set.search=ismcts iterations=2000 \
   --engine cmd=$T name=rules set.search=rules \
   --record ninetynine-ismcts-rules.txt > ninetynine-ismcts-rules.out 2>> cards.err
