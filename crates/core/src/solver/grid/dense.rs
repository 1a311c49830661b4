//! A grid's cells as one row-major vector, built once on every core: what a face hands over
//! as an array (Python's numpy arrays take the vector itself, without a copy).

use rayon::prelude::*;

use super::storage::{DirectCells, Grid, Values};

impl Grid {
    /// The cells row by row (`rows × cols` of them, row `rows.start` first), each made by `f`
    /// from the cell's exact value (`None` where the cell is not a position), a block of rows
    /// per core.
    pub fn to_row_major<T: Send + Copy + Default>(&self, f: impl Fn(Option<u64>) -> T + Sync) -> Vec<T> {
        // A block of rows at a time, column by column across the block: a symmetric map keeps
        // only its triangle, so G(a, b) for b > a sits in row b, and reading row by row would
        // jump through memory at every cell (as the CSV writer does, `csv.rs`).
        const BLOCK: usize = 64;
        let (rows, cols) = (self.rows.clone(), self.cols.clone());
        let width = (cols.end - cols.start) as usize;
        let height = (rows.end - rows.start) as usize;
        let mut out = vec![T::default(); width * height];
        if width == 0 {
            return out;
        }
        out.par_chunks_mut(width * BLOCK).enumerate().for_each(|(k, block)| {
            let a0 = rows.start + (k * BLOCK) as u64;
            for (j, b) in cols.clone().enumerate() {
                for (i, row) in block.chunks_mut(width).enumerate() {
                    row[j] = f(self.get_wide(a0 + i as u64, b));
                }
            }
        });
        out
    }

    /// Whether a value may pass what 32 bits hold (a closed form's far from the origin): a
    /// face then hands the values over in 64 bits.
    pub fn needs_64_bits(&self) -> bool {
        matches!(&self.values, Values::Direct(d) if matches!(d.cells, DirectCells::Wide(_)))
    }
}
