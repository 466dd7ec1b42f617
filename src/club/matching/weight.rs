//! The edge weight the matching computes with: exact integers, from `i64` to [`super::wide::Wide`].

use std::fmt::Debug;
use std::ops::{Add, Sub};

/// An exact edge weight: an integer type with room for twice the largest weight plus the sum of
/// two of them.
pub trait Weight: Copy + Ord + Debug + Add<Output = Self> + Sub<Output = Self> {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Half of an even value.
    fn half(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    fn half(self) -> i64 {
        self / 2
    }
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    const ONE: i128 = 1;
    fn half(self) -> i128 {
        self / 2
    }
}
