//! The worker's lanes without a window.

mod lane_budget;
mod shared_quotient;
