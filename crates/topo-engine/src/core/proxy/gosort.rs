//! Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19+ `sort/zsortinterface.go`), ported
//! line for line. It is not stable, and kube-proxy 1.21–1.30 sorted each slice's endpoints with it
//! (`sort.Sort(byAddress(...))` in `pkg/proxy/endpointslicecache.go`), so which copy of a
//! duplicated address it visits first — and keeps — is whatever this exact algorithm leaves
//! first. kube-proxy builds before Go 1.19 (1.24 and older) used a different quicksort; this is
//! the sort of every supported toolchain since.

const MAX_INSERTION: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Data<'a, T, F: Fn(&T, &T) -> bool> {
    items: &'a mut [T],
    less: F,
}

impl<T, F: Fn(&T, &T) -> bool> Data<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.items[i], &self.items[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
    }
}

/// `sort.Sort(data)` over `items` with `less`.
pub(crate) fn go_sort<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = items.len();
    if n <= 1 {
        return;
    }
    let limit = bits_len(n);
    let mut data = Data { items, less };
    pdqsort(&mut data, 0, n, limit);
}

/// `bits.Len(uint(n))`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

fn insertion_sort<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && data.less(j, j - 1) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && data.less(first + child, first + child + 1) {
            child += 1;
        }
        if !data.less(first + root, first + child) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let (first, lo, hi) = (a, 0, b - a);
    for i in (0..=(hi - 1) / 2).rev() {
        sift_down(data, i, hi, first);
    }
    for i in (0..hi).rev() {
        data.swap(first, first + i);
        sift_down(data, lo, i, first);
    }
}

fn pdqsort<T, F: Fn(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    mut a: usize,
    mut b: usize,
    mut limit: usize,
) {
    let (mut was_balanced, mut was_partitioned) = (true, true);
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b);
        if hint == Hint::Decreasing {
            reverse_range(data, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced && was_partitioned && hint == Hint::Increasing && partial_insertion_sort(data, a, b) {
            return;
        }
        if a > 0 && !data.less(a - 1, pivot) {
            a = partition_equal(data, a, b, pivot);
            continue;
        }
        let (mid, already_partitioned) = partition(data, a, b, pivot);
        was_partitioned = already_partitioned;
        let (left, right) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left < right {
            was_balanced = left >= balance_threshold;
            pdqsort(data, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= balance_threshold;
            pdqsort(data, mid + 1, b, limit);
            b = mid;
        }
    }
}

// Indices i and j are inclusive; j may step below a+1 by one, hence the signed arithmetic.
fn partition<T, F: Fn(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> (usize, bool) {
    data.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let less = |data: &Data<'_, T, F>, x: isize, y: usize| data.less(x as usize, y);
    while i <= j && less(data, i, a) {
        i += 1;
    }
    while i <= j && !less(data, j, a) {
        j -= 1;
    }
    if i > j {
        data.swap(j as usize, a);
        return (j as usize, true);
    }
    data.swap(i as usize, j as usize);
    i += 1;
    j -= 1;
    loop {
        while i <= j && less(data, i, a) {
            i += 1;
        }
        while i <= j && !less(data, j, a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    data.swap(j as usize, a);
    (j as usize, false)
}

fn partition_equal<T, F: Fn(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> usize {
    data.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    loop {
        while i <= j && !data.less(a, i as usize) {
            i += 1;
        }
        while i <= j && data.less(a, j as usize) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    i as usize
}

fn partial_insertion_sort<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !data.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            let mut j = i + 1;
            while j < b && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j += 1;
            }
        }
    }
    false
}

fn break_patterns<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        let modulus = 1usize << bits_len(length);
        for idx in a + (length / 4) * 2 - 1..=a + (length / 4) * 2 + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            data.swap(idx, a + other);
        }
    }
}

fn choose_pivot<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let (mut i, mut j, mut k) = (a + l / 4, a + l / 4 * 2, a + l / 4 * 3);
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(data, i - 1, i, i + 1, &mut swaps);
            j = median(data, j - 1, j, j + 1, &mut swaps);
            k = median(data, k - 1, k, k + 1, &mut swaps);
        }
        j = median(data, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2<T, F: Fn(&T, &T) -> bool>(
    data: &Data<'_, T, F>,
    a: usize,
    b: usize,
    swaps: &mut usize,
) -> (usize, usize) {
    if data.less(b, a) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

fn median<T, F: Fn(&T, &T) -> bool>(
    data: &Data<'_, T, F>,
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut usize,
) -> usize {
    let (a, b) = order2(data, a, b, swaps);
    let (b, c) = order2(data, b, c, swaps);
    let _ = c;
    let (_, b) = order2(data, a, b, swaps);
    b
}

fn reverse_range<T, F: Fn(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::go_sort;

    #[test]
    fn sorts_like_a_sort() {
        for n in [0usize, 1, 2, 5, 12, 13, 49, 50, 51, 200, 1000] {
            let mut v: Vec<u64> = (0..n as u64).map(|i| (i * 7919 + 13) % 101).collect();
            go_sort(&mut v, |a, b| a < b);
            assert!(v.windows(2).all(|w| w[0] <= w[1]), "n={n}");
        }
    }

    /// `sort.Sort` in Go 1.26 over `n` pairs (i*mul % modulus, i) by key; the tags in the order Go
    /// leaves them (pinned by running Go; the algorithm is deterministic but not stable). Sizes hit
    /// insertion sort, partitions, the ninther and pattern breaking.
    fn sorted_tags(n: usize, modulus: usize, mul: usize) -> Vec<usize> {
        let mut v: Vec<(usize, usize)> = (0..n).map(|i| ((i * mul) % modulus, i)).collect();
        go_sort(&mut v, |a, b| a.0 < b.0);
        v.iter().map(|p| p.1).collect()
    }

    #[test]
    fn equal_keys_end_where_go_leaves_them() {
        assert_eq!(sorted_tags(20, 3, 1), GO_20);
        assert_eq!(sorted_tags(80, 5, 37), GO_80);
        assert_eq!(sorted_tags(300, 7, 11), GO_300);
    }

    const GO_20: [usize; 20] = [9, 18, 15, 3, 12, 0, 6, 10, 7, 4, 13, 16, 1, 19, 8, 5, 11, 14, 2, 17];
    const GO_80: [usize; 80] = [
        25, 65, 75, 30, 40, 5, 35, 70, 55, 0, 10, 45, 60, 20, 50, 15, 8, 53, 18, 58, 13, 48, 63, 23, 43, 33,
        68, 73, 28, 38, 3, 78, 41, 66, 1, 31, 36, 76, 71, 6, 11, 26, 61, 56, 16, 51, 46, 21, 64, 39, 19, 79,
        34, 74, 54, 44, 4, 29, 14, 59, 69, 24, 49, 9, 72, 57, 32, 67, 7, 12, 27, 62, 47, 42, 17, 2, 37, 77,
        52, 22,
    ];
    const GO_300: [usize; 300] = [
        42, 189, 91, 294, 84, 287, 98, 7, 280, 105, 77, 273, 112, 266, 14, 119, 126, 259, 70, 252, 133, 21,
        140, 63, 147, 238, 0, 231, 28, 154, 56, 224, 161, 217, 168, 35, 210, 175, 49, 203, 182, 196, 245,
        142, 191, 296, 184, 198, 177, 205, 37, 51, 170, 212, 163, 219, 30, 156, 58, 226, 233, 149, 240, 23,
        9, 65, 86, 135, 247, 128, 254, 16, 72, 121, 261, 114, 268, 275, 107, 79, 44, 100, 282, 93, 289, 2,
        151, 39, 88, 298, 53, 179, 291, 165, 4, 95, 46, 186, 284, 158, 81, 193, 102, 277, 200, 11, 60, 270,
        172, 109, 207, 144, 214, 263, 32, 256, 116, 18, 221, 74, 137, 249, 228, 123, 67, 235, 242, 25, 130,
        237, 69, 125, 132, 27, 230, 244, 20, 251, 223, 139, 118, 258, 216, 76, 111, 34, 146, 62, 209, 265,
        13, 272, 202, 153, 104, 41, 195, 279, 6, 188, 160, 55, 97, 286, 181, 83, 293, 167, 90, 48, 174, 22,
        64, 1, 295, 50, 176, 169, 85, 92, 288, 99, 281, 183, 8, 274, 162, 106, 78, 267, 190, 43, 113, 15,
        260, 57, 155, 197, 253, 120, 246, 71, 239, 127, 204, 232, 134, 29, 225, 148, 36, 211, 141, 218, 269,
        17, 143, 297, 213, 52, 220, 66, 3, 178, 31, 290, 94, 227, 136, 283, 206, 164, 38, 101, 234, 276, 10,
        129, 150, 185, 24, 241, 80, 171, 45, 87, 59, 122, 248, 73, 108, 199, 192, 262, 157, 255, 115, 257,
        278, 215, 194, 117, 40, 19, 264, 110, 250, 124, 12, 243, 159, 271, 187, 201, 152, 236, 131, 103, 75,
        26, 54, 47, 68, 229, 82, 285, 96, 5, 180, 61, 208, 166, 292, 138, 222, 145, 173, 33, 89, 299,
    ];
}
