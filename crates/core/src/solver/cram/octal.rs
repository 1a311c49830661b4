//! Octal game 0.07 (Dawson's Kayles in cell indexing: Cram on a strip), which values the
//! paths and cycles of Cram components and the rows of Push Cram after the push.

use crate::game::rules::cram_board::low_bits;

/// Values of 0.07 for strips of 0..=128 cells: a move removes two adjacent cells of a strip,
/// leaving two strips.
const fn octal_007_table() -> [u32; 129] {
    let mut g = [0u32; 129];
    let mut n = 2;
    while n <= 128 {
        // Options: strips a and n - 2 - a; values stay below 64.
        let mut seen = 0u64;
        let mut a = 0;
        while a + 2 <= n {
            seen |= 1 << (g[a] ^ g[n - 2 - a]);
            a += 1;
        }
        g[n] = (!seen).trailing_zeros();
        n += 1;
    }
    g
}

/// `G007[n]`: value of 0.07 on a strip of `n` cells.
pub(crate) static G007: [u32; 129] = octal_007_table();

/// XOR over rows of the 0.07 values of the maximal empty runs, for cells packed with stride
/// `w`: the value of Push Cram right after the push (only horizontal dominoes are left).
pub(crate) fn row_runs_value(cells: u128, w: usize) -> u32 {
    let mut v = 0;
    let mut rest = cells;
    let row_mask = low_bits(w);
    let mut r = 0;
    while rest != 0 {
        let mut row = (rest >> (r * w)) & row_mask;
        rest &= !(row_mask << (r * w));
        while row != 0 {
            let start = row.trailing_zeros();
            let len = (row >> start).trailing_ones();
            v ^= G007[len as usize];
            row &= !(low_bits(len as usize) << start);
        }
        r += 1;
    }
    v
}

/// XOR over columns of the 0.07 values of the maximal empty vertical runs (stride `w`): the
/// value of Cram with vertical dominoes only.
pub(crate) fn column_runs_value(cells: u128, rows: usize, w: usize) -> u32 {
    let mut v = 0;
    for c in 0..w {
        let mut run = 0;
        for r in 0..=rows {
            if r < rows && cells >> (r * w + c) & 1 == 1 {
                run += 1;
            } else {
                v ^= G007[run];
                run = 0;
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_007_values() {
        let expected = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0,
            1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
        ];
        for (n, &g) in expected.iter().enumerate() {
            assert_eq!(G007[n], g, "n = {n}");
        }
        // Period 34 from the end of the pre-period (52 in cell indexing) on.
        for n in 53..=128 - 34 {
            assert_eq!(G007[n], G007[n + 34], "n = {n}");
        }
    }

    #[test]
    fn runs() {
        // ..#... / ...... / #.#.#.  (stride 6)
        // Row runs: 2, 3 | 6 | 1, 1, 1 -> 1 ^ 1 ^ 3 ^ 0 ^ 0 ^ 0 = 3.
        let cells: u128 = 0b111011 | 0b111111 << 6 | 0b101010 << 12;
        assert_eq!(row_runs_value(cells, 6), 3);
        // Column runs: 2 | 3 | 1 | 3 | 2 | 3 -> 1 ^ 1 ^ 0 ^ 1 ^ 1 ^ 1 = 1.
        assert_eq!(column_runs_value(cells, 3, 6), 1);
    }
}
