#!/bin/bash
# A one-node Slurm cluster from Debian's packages (munge, slurmctld,
# slurmd), started as plain processes in a scratch folder, runs a 3-shard
# `tabula match` through `sbatch --array`, then `--merge`s the shards and
# checks the merged report against one run of the same match.
#
#   apt-get install slurmctld slurmd slurm-client munge
#   cargo build --release && scripts/slurm-one-node.sh
#
# Needs root (munged and slurmd run as root here) and no other Slurm on
# the machine. Everything it starts is stopped at the end.
set -euo pipefail
ROOT=$(pwd)
TABULA=${TABULA:-$ROOT/target/release/tabula}
DIR=${DIR:-$(mktemp -d /tmp/tabula-slurm.XXXXXX)}
HOST=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$DIR"/{state,spool,munge,out}
echo "scratch: $DIR" >&2

for tool in munged slurmctld slurmd sbatch squeue; do
    command -v "$tool" > /dev/null || { echo "missing $tool: apt-get install slurmctld slurmd slurm-client munge" >&2; exit 2; }
done

# munge: a key and a daemon on a socket of our own.
dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$DIR/munge/munge.key"
SOCKET="$DIR/munge/munge.socket"
munged --key-file="$DIR/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" \
    --seed-file="$DIR/munge/munged.seed" --force

cat > "$DIR/slurm.conf" <<CONF
ClusterName=tabula
SlurmctldHost=$HOST
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$DIR/slurm.conf"

cleanup() {
    for f in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -f "$DIR/$f" ] && kill "$(cat "$DIR/$f")" 2> /dev/null || true
    done
}
trap cleanup EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 30); do sinfo -h -o %T 2> /dev/null | grep -q idle && break; sleep 1; done
sinfo

# The match: the same words for the shards and for the one run.
MATCH=(--engine cmd="$TABULA" name=ab set.search=alphabeta
       --engine cmd="$TABULA" name=rules set.search=rules
       --game othello --games 24 --depth 2 -j 1 --seed 7
       --openings "$ROOT/openings/othello-8ply.txt" --quiet)
cat > "$DIR/shard.sbatch" <<JOB
#!/bin/bash
#SBATCH --job-name=tabula-shard
#SBATCH --cpus-per-task=1
#SBATCH --output=$DIR/out/slurm-%A_%a.out
exec "$TABULA" match $(printf '%q ' "${MATCH[@]}") \\
    --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" \\
    --record "$DIR/out/shard-\$SLURM_ARRAY_TASK_ID.txt"
JOB
JOB=$(sbatch --parsable --array=1-3 "$DIR/shard.sbatch")
echo "submitted array job $JOB" >&2
while squeue -h -j "$JOB" 2> /dev/null | grep -q .; do sleep 1; done
ls "$DIR"/out/shard-{1,2,3}.txt > /dev/null
"$TABULA" match --merge "$DIR"/out/shard-{1,2,3}.txt --no-record > "$DIR/merged.txt"
"$TABULA" match "${MATCH[@]}" --record "$DIR/one.txt" > "$DIR/one-run.txt"
# The reports agree but for the lines naming files, seeds and times.
strip() { grep -v -E '^(Time|Record|Merged from|Match):' "$1"; }
if diff <(strip "$DIR/merged.txt") <(strip "$DIR/one-run.txt"); then
    echo "slurm: 3 shards merged = one run" >&2
else
    echo "slurm: the merged report differs from one run" >&2
    exit 1
fi
