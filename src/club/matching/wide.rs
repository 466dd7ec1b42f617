//! A fixed-width signed integer of `N` 64-bit limbs, the edge weight of pairing systems whose
//! criteria need more bits than `i128` has (one field per score group and criterion: several
//! hundred bits for a thousand players).
//!
//! Written here because the matching needs only add, subtract, compare, halve and a few bit
//! operations on a value that lives in a `Copy` array; the big-integer crates allocate per value,
//! which the matching's inner loop (millions of slack computations) cannot afford.

use super::weight::Weight;
use std::cmp::Ordering;
use std::ops::{Add, BitOr, Sub};

/// A two's-complement integer of `64 * N` bits, least significant limb first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Wide<N> = Wide([0; N]);

    /// The value of a small unsigned number.
    pub fn from_u64(v: u64) -> Wide<N> {
        let mut limbs = [0; N];
        limbs[0] = v;
        Wide(limbs)
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    /// The value shifted left by `bits` (bits shifted past the top are lost).
    pub fn shifted(self, bits: u32) -> Wide<N> {
        let (limbs, rest) = ((bits / 64) as usize, bits % 64);
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let lo = self.0[i - limbs];
            out[i] = lo << rest;
            if rest > 0 && i > limbs {
                out[i] |= self.0[i - limbs - 1] >> (64 - rest);
            }
        }
        Wide(out)
    }

    /// One at bit `bit`.
    pub fn bit_at(bit: u32) -> Wide<N> {
        Wide::from_u64(1).shifted(bit)
    }

    /// The value plus the small number `v` shifted left by `bit` (what is carried past the top
    /// is lost): a field added in place, without shifting the whole value.
    #[inline]
    pub fn add_at(mut self, bit: u32, v: u64) -> Wide<N> {
        let (limb, rest) = ((bit / 64) as usize, bit % 64);
        let parts = [v << rest, if rest == 0 { 0 } else { v >> (64 - rest) }];
        let mut carry = 0u64;
        for i in limb..N {
            let part = parts.get(i - limb).copied().unwrap_or(0);
            if part == 0 && carry == 0 {
                if i > limb + 1 {
                    break;
                }
                continue;
            }
            let (sum, c1) = self.0[i].overflowing_add(part);
            let (sum, c2) = sum.overflowing_add(carry);
            self.0[i] = sum;
            carry = (c1 || c2) as u64;
        }
        self
    }

    /// The value with the small number `v` or-ed into its lowest limb.
    pub fn or(mut self, v: u64) -> Wide<N> {
        self.0[0] |= v;
        self
    }

    /// The value plus the small number `v`.
    pub fn plus(self, v: u64) -> Wide<N> {
        self + Wide::from_u64(v)
    }

    /// The value minus the small number `v`.
    pub fn minus(self, v: u64) -> Wide<N> {
        self - Wide::from_u64(v)
    }

    /// Whether bit `bit` is set.
    pub fn bit(&self, bit: u32) -> bool {
        let (limb, rest) = ((bit / 64) as usize, bit % 64);
        limb < N && (self.0[limb] >> rest) & 1 == 1
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Wide<N> {
        Wide::ZERO
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn add(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut carry = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let s = self.0[i] as u128 + other.0[i] as u128 + carry;
            *o = s as u64;
            carry = s >> 64;
        }
        Wide(out)
    }
}

impl<const N: usize> BitOr for Wide<N> {
    type Output = Wide<N>;
    fn bitor(mut self, other: Wide<N>) -> Wide<N> {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn sub(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            *o = d;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Wide<N>) -> Ordering {
        match (self.negative(), other.negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Wide<N>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negative() {
            return write!(f, "-{:?}", Wide::ZERO - *self);
        }
        write!(f, "0x")?;
        let mut started = false;
        for i in (0..N).rev() {
            if started {
                write!(f, "{:016x}", self.0[i])?;
            } else if self.0[i] != 0 || i == 0 {
                write!(f, "{:x}", self.0[i])?;
                started = true;
            }
        }
        Ok(())
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Wide<N> = Wide([0; N]);
    const ONE: Wide<N> = {
        let mut limbs = [0; N];
        limbs[0] = 1;
        Wide(limbs)
    };
    /// An arithmetic shift right by one.
    fn half(self) -> Wide<N> {
        let mut out = [0; N];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i] >> 1;
            if i + 1 < N {
                *o |= self.0[i + 1] << 63;
            }
        }
        if self.negative() {
            out[N - 1] |= 1 << 63;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn wide(v: i128) -> Wide<3> {
        let u = v as u128;
        let high = if v < 0 { u64::MAX } else { 0 };
        Wide([u as u64, (u >> 64) as u64, high])
    }

    proptest! {
        #[test]
        fn agrees_with_i128(a in -(1i128 << 100)..(1i128 << 100), b in -(1i128 << 100)..(1i128 << 100), s in 0u32..20) {
            prop_assert_eq!(wide(a) + wide(b), wide(a + b));
            prop_assert_eq!(wide(a) - wide(b), wide(a - b));
            prop_assert_eq!(wide(a).cmp(&wide(b)), a.cmp(&b));
            prop_assert_eq!(wide(a).half(), wide(a >> 1));
            prop_assert_eq!(wide(a).shifted(s), wide(a << s));
            prop_assert_eq!(wide(a).bit(s + 60), (a >> (s + 60)) & 1 == 1);
            let small = (b as u64) & 0xffff;
            prop_assert_eq!(wide(a).add_at(s * 5, small), wide(a + ((small as i128) << (s * 5))));
        }
    }

    #[test]
    fn shifts_cross_limbs_and_drop_the_top() {
        let one = Wide::<2>::from_u64(1);
        assert_eq!(one.shifted(64), Wide([0, 1]));
        assert_eq!(one.shifted(127).shifted(1), Wide::ZERO);
        assert_eq!(Wide::<2>::from_u64(3).shifted(63), Wide([1 << 63, 1]));
    }
}
