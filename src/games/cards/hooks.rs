//! What the card games' [`Game`](crate::game::Game) impls would otherwise
//! each write out alike.

/// The evaluation hook of the card games: the reward as it stands (the
/// hand or round scored so far), mapped from `[0, 1]` to `[-1, 1]`.
pub fn reward_as_evaluation(reward: f64) -> f64 {
    2.0 * reward - 1.0
}
