//! Tables keyed by socket give their room back after a crowd leaves: a hash table keeps its
//! capacity when entries are removed, so 5,000 sockets that came and went would leave tables
//! sized for 5,000 for the life of the process.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// Below this capacity a table is not worth shrinking.
const MIN_CAPACITY: usize = 64;

/// A table that can report its use and shrink.
pub(crate) trait Shrink {
    fn len_and_capacity(&self) -> (usize, usize);
    fn shrink_to(&mut self, min_capacity: usize);
}

impl<K: Eq + Hash, V> Shrink for HashMap<K, V> {
    fn len_and_capacity(&self) -> (usize, usize) {
        (self.len(), self.capacity())
    }
    fn shrink_to(&mut self, min_capacity: usize) {
        HashMap::shrink_to(self, min_capacity);
    }
}

impl<K: Eq + Hash> Shrink for HashSet<K> {
    fn len_and_capacity(&self) -> (usize, usize) {
        (self.len(), self.capacity())
    }
    fn shrink_to(&mut self, min_capacity: usize) {
        HashSet::shrink_to(self, min_capacity);
    }
}

/// After a removal: once at most a quarter of the table is used, it shrinks to twice what it
/// holds (so growing again costs one rehash, and shrinking stays amortised O(1) per removal).
pub(crate) fn when_sparse<T: Shrink>(table: &mut T) {
    let (len, capacity) = table.len_and_capacity();
    if capacity > MIN_CAPACITY && len.saturating_mul(4) <= capacity {
        table.shrink_to((len * 2).max(MIN_CAPACITY));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_a_crowd_left_shrinks_and_a_busy_one_does_not() {
        let mut map: HashMap<u64, u64> = (0..5_000).map(|i| (i, i)).collect();
        let full = map.capacity();
        for i in 0..4_000 {
            map.remove(&i);
            when_sparse(&mut map);
        }
        // A fifth left: the table gave back at least half of its room.
        assert!(map.capacity() <= full / 2, "{} of {full}", map.capacity());
        for i in 4_000..5_000 {
            map.remove(&i);
            when_sparse(&mut map);
        }
        assert!(map.capacity() <= 2 * MIN_CAPACITY, "{}", map.capacity());

        let mut busy: HashSet<u64> = (0..1_000).collect();
        let capacity = busy.capacity();
        busy.remove(&1);
        when_sparse(&mut busy);
        // Not shrunk. (A removal that leaves a tombstone, as it does in a full group, takes one
        // from the room reported until the table is rebuilt, so one less is the same table.)
        assert!(
            busy.capacity() + 1 >= capacity,
            "{} of {capacity}",
            busy.capacity()
        );
    }
}
