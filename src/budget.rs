//! A budget shared by the files of one run: of open handles, or of bytes held in memory.
//! Files in flight (being read, waiting in the scheduler's reorder window, being written)
//! take shares of it; a share goes back when it is dropped, with the file's facts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A budget of `max` units, shared by clones.
#[derive(Debug, Clone)]
pub struct Budget {
    taken: Arc<AtomicUsize>,
    max: usize,
}

impl Budget {
    pub fn new(max: usize) -> Budget {
        Budget {
            taken: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    /// An empty share, to take units into as they are needed.
    pub fn share(&self) -> Share {
        Share {
            budget: self.clone(),
            units: 0,
        }
    }
}

/// Units taken from a [`Budget`]; they go back when the share is dropped.
#[derive(Debug)]
pub struct Share {
    budget: Budget,
    units: usize,
}

impl Share {
    /// Take `n` more units, when the budget has them left.
    pub fn take(&mut self, n: usize) -> bool {
        let max = self.budget.max;
        let took = self
            .budget
            .taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                t.checked_add(n).filter(|&sum| sum <= max)
            });
        if took.is_ok() {
            self.units += n;
        }
        took.is_ok()
    }

    /// The units this share holds.
    pub fn units(&self) -> usize {
        self.units
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        self.budget.taken.fetch_sub(self.units, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_take_what_is_left_and_give_it_back_when_dropped() {
        let budget = Budget::new(10);
        let mut a = budget.share();
        assert!(a.take(6));
        let mut b = budget.share();
        assert!(!b.take(5), "only 4 left");
        assert!(b.take(4));
        assert!(!a.take(1));
        assert_eq!((a.units(), b.units()), (6, 4));
        drop(a);
        assert!(b.take(6));
        assert!(!budget.share().take(usize::MAX), "no overflow");
    }
}
