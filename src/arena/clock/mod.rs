//! The clock room: time as the runner enforces it. [`seat_clock`] (each
//! seat's clock in a game) and [`tcscale`] (time limits scaled by this
//! machine's speed).

pub mod seat_clock;
pub mod tcscale;
