//! Recalled results of expensive library functions (`pow`, `exp`, `log`, the trig
//! family): a small direct-mapped table per machine, keyed by the compiled call site
//! and its exact argument bits. Shaders call these functions on values that repeat
//! from pixel to pixel (flat areas of the picture, the 256 levels of an 8-bit texel),
//! and the correctly rounded value costs far more than a lookup.
//!
//! It is a cache and nothing else: a hit returns exactly what the function returned
//! for the same bits, so it never changes a result, and it must never be shared
//! between threads (each machine copy starts with an empty table).

use std::sync::atomic::{AtomicU32, Ordering};

/// Slots in the table (a power of two).
const SLOTS: usize = 1 << 12;

/// A call site's identity, unique per compiled call (0 is never handed out: empty slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site(u32);

impl Site {
    /// A new call site, distinct from every other of this process.
    pub fn new() -> Site {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        // Wrapping past u32::MAX after four billion compiled calls would only make two
        // sites share slots by id; a wrap to 0 is skipped so that empty stays empty.
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        Site(if id == 0 { NEXT.fetch_add(1, Ordering::Relaxed) } else { id })
    }
}

impl Default for Site {
    fn default() -> Site {
        Site::new()
    }
}

#[derive(Clone, Copy)]
struct Slot {
    site: u32,
    args: [u64; 2],
    value: f64,
}

const EMPTY: Slot = Slot { site: 0, args: [0; 2], value: 0.0 };

/// The table. Cloning gives an empty one (a copy of a machine starts cold, which costs
/// nothing but misses).
#[derive(Default)]
pub struct Recall {
    slots: Vec<Slot>,
}

impl Clone for Recall {
    fn clone(&self) -> Recall {
        Recall::default()
    }
}

impl Recall {
    /// The value of the function at `site` for the arguments `a` (by their bits),
    /// computed by `f` on a miss and remembered.
    #[inline]
    pub fn get_or(&mut self, site: Site, a: [f64; 2], f: impl FnOnce() -> f64) -> f64 {
        if self.slots.is_empty() {
            self.slots = vec![EMPTY; SLOTS];
        }
        let args = [a[0].to_bits(), a[1].to_bits()];
        let h = (args[0] ^ args[1].rotate_left(29) ^ u64::from(site.0).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let i = (h >> (64 - SLOTS.trailing_zeros())) as usize;
        let slot = &mut self.slots[i];
        if slot.site == site.0 && slot.args == args {
            return slot.value;
        }
        let value = f();
        *slot = Slot { site: site.0, args, value };
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_gives_what_the_function_gave_for_the_same_bits() {
        let mut r = Recall::default();
        let (pow, exp) = (Site::new(), Site::new());
        let mut calls = 0;
        let mut pow_at = |r: &mut Recall, x: f64, y: f64| {
            r.get_or(pow, [x, y], || {
                calls += 1;
                x.powf(y)
            })
        };
        assert_eq!(pow_at(&mut r, 0.5, 2.2), 0.5f64.powf(2.2));
        assert_eq!(pow_at(&mut r, 0.5, 2.2), 0.5f64.powf(2.2));
        // -0.0 and 0.0 are different arguments (pow(-0, -1) is -inf, pow(0, -1) is inf).
        assert_eq!(pow_at(&mut r, -0.0, -1.0), f64::NEG_INFINITY);
        assert_eq!(pow_at(&mut r, 0.0, -1.0), f64::INFINITY);
        assert_eq!(calls, 3);
        // Another site with the same arguments computes its own value.
        assert_eq!(r.get_or(exp, [0.5, 2.2], || 0.5f64.exp()), 0.5f64.exp());
    }

    #[test]
    fn many_arguments_evict_but_never_mix_up() {
        let mut r = Recall::default();
        let site = Site::new();
        for round in 0..2 {
            for k in 0..(4 * SLOTS) {
                let x = k as f64 / 7.0;
                assert_eq!(r.get_or(site, [x, 1.5], || x.powf(1.5)), x.powf(1.5), "round {round}, {x}");
            }
        }
        // A copy starts empty and computes again.
        let mut copy = r.clone();
        let mut called = false;
        copy.get_or(site, [0.0, 1.5], || {
            called = true;
            0.0
        });
        assert!(called);
    }
}
