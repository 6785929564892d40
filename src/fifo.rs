//! A map that lets its oldest entries go past a weight: what a run keeps of the files it
//! has read for the files that come after them (a lineage rebuilt, what a file's own pass
//! found of its whole), bounded however many files the run reads. Entries go in the order
//! they came, never by use: a fork is most often read soon after its source.

use std::borrow::Borrow;
use std::collections::VecDeque;
use std::hash::Hash;

// Keys are paths, hashed by the thousand: a fast hash.
use foldhash::{HashMap, HashMapExt};

/// At most `max` of weight (each entry weighs what it was put with), the oldest let go
/// first, the newest always kept.
#[derive(Debug)]
pub struct Fifo<K, V> {
    map: HashMap<K, (V, usize)>,
    /// The keys, oldest first.
    order: VecDeque<K>,
    weight: usize,
    max: usize,
}

impl<K: Hash + Eq + Clone, V> Fifo<K, V> {
    pub fn new(max: usize) -> Fifo<K, V> {
        Fifo {
            map: HashMap::new(),
            order: VecDeque::new(),
            weight: 0,
            max,
        }
    }

    pub fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.map.get(key).map(|(v, _)| v)
    }

    pub fn contains_key<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.map.contains_key(key)
    }

    /// Put `value` under `key`, weighing `weight`: an entry of the same key is replaced and
    /// keeps its place. Then the oldest go while the whole weighs more than the bound.
    pub fn insert(&mut self, key: K, value: V, weight: usize) {
        match self.map.get_mut(&key) {
            Some(old) => {
                self.weight = self.weight - old.1 + weight;
                *old = (value, weight);
            }
            None => {
                self.weight += weight;
                self.order.push_back(key.clone());
                self.map.insert(key, (value, weight));
            }
        }
        while self.weight > self.max && self.order.len() > 1 {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some((_, w)) = self.map.remove(&oldest) {
                self.weight -= w;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_go_first_past_the_weight_and_the_newest_stays() {
        let mut f = Fifo::new(10);
        for k in 0..5 {
            f.insert(k, k * 10, 3);
        }
        // 15 of weight: the two oldest went.
        assert_eq!(f.len(), 3);
        assert!(!f.contains_key(&0) && !f.contains_key(&1));
        assert_eq!(f.get(&4), Some(&40));
        // One heavier than the bound is kept alone.
        f.insert(9, 90, 50);
        assert_eq!((f.len(), f.get(&9)), (1, Some(&90)));
    }

    #[test]
    fn a_key_put_again_is_replaced_in_its_place() {
        let mut f = Fifo::new(3);
        f.insert("a", 1, 1);
        f.insert("b", 2, 1);
        f.insert("a", 3, 1);
        f.insert("c", 4, 1);
        f.insert("d", 5, 1);
        // `a` kept its place, the oldest: it went first.
        assert_eq!(f.get("a"), None);
        assert_eq!(
            (f.get("b"), f.get("c"), f.get("d")),
            (Some(&2), Some(&4), Some(&5))
        );
    }
}
