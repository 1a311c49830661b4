//! The map's tiles on the GPU: one texture per tile drawn, coloured from the tile's pooled
//! keys and uploaded again only when the tile gained cells or the colours changed (a new mode
//! or a new top of the colour scale). Drawing a frame is then a handful of textured rectangles,
//! whatever the zoom.

use std::collections::HashMap;

use egui::{Color32, ColorImage, TextureHandle, TextureOptions};

use nimscope_core::raster::ColorMode;
use nimscope_core::solver::tiles::{NOT_COMPUTED, TILE, Tile, TileKey};

/// Tiles uploaded in one frame at most (the rest wait for the next, which is requested), so a
/// change of colours never costs one long frame: with a GPU, where frames are cheap and many.
const UPLOADS_PER_FRAME: usize = 10;
/// The same on a software renderer, whose every frame costs the CPU several hundredths of a
/// second whatever it uploads (painting a tile takes a fraction of a millisecond): there a
/// backlog of tiles must not cost frames.
const UPLOADS_PER_SOFTWARE_FRAME: usize = 200;
/// Frames a texture not drawn is kept before it is dropped, and how many are kept at most
/// (each is a quarter of a megabyte of video memory, or of main memory on a software renderer).
const KEEP_FRAMES: u64 = 600;
const MAX_TEXTURES: usize = 160;

struct TileTexture {
    handle: TextureHandle,
    /// The tile's version and the colours it was painted with.
    painted: (u64, ColorMode, u32),
    used: u64,
}

/// The pooled cells of a tile computed so far, when they make one rectangle: rows (upwards
/// from the tile's first) and columns, half-open. A fill computes whole rows or a square from
/// the origin, so a tile not complete holds a rectangle (the tile's part of it) but for a
/// tile pieced together from several fills.
pub type DoneRect = (std::ops::Range<usize>, std::ops::Range<usize>);

/// The textures of the tiles drawn.
#[derive(Default)]
pub struct TileTextures {
    textures: HashMap<TileKey, TileTexture>,
    /// Each incomplete tile's computed rectangle as of the tile's version (`None`: its
    /// computed cells are not one rectangle).
    done: HashMap<TileKey, (u64, Option<DoneRect>)>,
    /// The colours of keys 0.. for the current mode and scale.
    table: Option<(ColorMode, u32, Vec<Color32>)>,
    frame: u64,
    /// The epoch of the tile store the textures show.
    epoch: u64,
    uploads: usize,
    /// Whether the window is drawn by a software renderer (see [`UPLOADS_PER_SOFTWARE_FRAME`]).
    pub software: bool,
    /// Whether some tile could not be uploaded this frame (another frame is needed).
    pub behind: bool,
    /// One period of the hatch of cells not computed yet, drawn repeated.
    hatch: Option<TextureHandle>,
}

impl TileTextures {
    /// Starts a frame.
    pub fn begin(&mut self) {
        self.frame += 1;
        self.uploads = 0;
        self.behind = false;
        let frame = self.frame;
        self.textures.retain(|_, t| frame - t.used < KEEP_FRAMES);
        if self.done.len() > 4 * MAX_TEXTURES {
            self.done.clear(); // computed again for the tiles still drawn
        }
        if self.textures.len() > MAX_TEXTURES {
            let mut ages: Vec<u64> = self.textures.values().map(|t| t.used).collect();
            ages.sort_unstable();
            let oldest_kept = ages[ages.len() - MAX_TEXTURES];
            self.textures.retain(|_, t| t.used >= oldest_kept);
        }
    }

    /// The hatch of cells not computed yet as a texture repeated over the area: a software
    /// renderer pays for every pixel of a shape, and the hatch's lines drawn one by one (a
    /// background and some 160 strokes over the map) painted most pixels twice, each frame.
    pub fn hatch(&mut self, ctx: &egui::Context) -> egui::TextureId {
        self.hatch
            .get_or_insert_with(|| ctx.load_texture("map-hatch", hatch_image(), TextureOptions::LINEAR_REPEAT))
            .id()
    }

    /// The rectangle of `tile`'s computed cells (version `version`), if they make one.
    pub fn done_rect(&mut self, key: TileKey, tile: &Tile, version: u64) -> Option<DoneRect> {
        match self.done.get(&key) {
            Some((v, rect)) if *v == version => rect.clone(),
            _ => {
                let rect = done_rect(tile);
                self.done.insert(key, (version, rect.clone()));
                rect
            }
        }
    }

    /// Forgets every texture when the tiles are of another store's epoch (other values).
    pub fn follow(&mut self, epoch: u64) {
        if self.epoch != epoch {
            self.done.clear();
            self.textures.clear();
            self.epoch = epoch;
        }
    }

    fn colors(&mut self, mode: ColorMode, max: u32) -> &[Color32] {
        if !matches!(&self.table, Some((m, x, _)) if *m == mode && *x == max) {
            // the core's table, as long as the figures' (the log mode's too)
            let colors = mode
                .color_table(max)
                .colors()
                .iter()
                .map(|c| Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3]))
                .collect();
            self.table = Some((mode, max, colors));
        }
        self.table.as_ref().map_or(&[], |(_, _, c)| c.as_slice())
    }

    /// The texture of `tile` (version `version`) in `mode` with `max` the top of the scale,
    /// uploading it if it changed and the frame's uploads allow; `None` if it has none yet.
    pub fn texture(
        &mut self,
        ctx: &egui::Context,
        key: TileKey,
        tile: &Tile,
        version: u64,
        mode: ColorMode,
        max: u32,
    ) -> Option<egui::TextureId> {
        let frame = self.frame;
        let want = (version, mode, max);
        let stale = self.textures.get(&key).is_none_or(|t| t.painted != want);
        let most = if self.software {
            UPLOADS_PER_SOFTWARE_FRAME
        } else {
            UPLOADS_PER_FRAME
        };
        if stale && self.uploads < most {
            self.uploads += 1;
            let image = paint(tile, mode, max, self.colors(mode, max));
            match self.textures.get_mut(&key) {
                Some(t) => {
                    t.handle.set(image, TextureOptions::NEAREST);
                    t.painted = want;
                }
                None => {
                    let handle = ctx.load_texture(
                        format!("map-tile-{}-{}-{}", key.level, key.row, key.col),
                        image,
                        TextureOptions::NEAREST,
                    );
                    self.textures.insert(
                        key,
                        TileTexture {
                            handle,
                            painted: want,
                            used: frame,
                        },
                    );
                }
            }
        } else if stale {
            self.behind = true;
        }
        let t = self.textures.get_mut(&key)?;
        t.used = frame;
        Some(t.handle.id())
    }
}

/// The rectangle the tile's computed cells make, if they make one (an empty one if none).
fn done_rect(tile: &Tile) -> Option<DoneRect> {
    let t = TILE as usize;
    // the rows holding computed cells, and the columns they span
    let mut bounds: Option<DoneRect> = None;
    for (i, row) in tile.keys().chunks_exact(t).enumerate() {
        let first = row.iter().position(|&k| k != NOT_COMPUTED);
        let last = row.iter().rposition(|&k| k != NOT_COMPUTED);
        if let (Some(a), Some(b)) = (first, last) {
            bounds = Some(match bounds {
                None => (i..i + 1, a..b + 1),
                Some((rows, cols)) => (rows.start..i + 1, cols.start.min(a)..cols.end.max(b + 1)),
            });
        }
    }
    let Some((rows, cols)) = bounds else {
        return Some((0..0, 0..0));
    };
    let area = (rows.end - rows.start) * (cols.end - cols.start);
    (tile.done() == area as u64).then_some((rows, cols))
}

/// The tile's pooled cells as pixels: the top row of the image is the tile's last pooled row.
fn paint(tile: &Tile, mode: ColorMode, max: u32, table: &[Color32]) -> ColorImage {
    let t = TILE as usize;
    let keys = tile.keys();
    let mut pixels = Vec::with_capacity(t * t);
    for y in 0..t {
        let row = &keys[(t - 1 - y) * t..(t - y) * t];
        pixels.extend(row.iter().map(|&k| match table.get(k as usize) {
            Some(&c) => c,
            None => {
                let c = mode.key_color(k, max);
                Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
            }
        }));
    }
    ColorImage::new([t, t], pixels)
}

/// Texels in one period of the hatch, each way: the period is [`HATCH_SPACING`] points.
const HATCH_TEXELS: usize = 28;
/// Points between two lines of the hatch, along either axis.
pub const HATCH_SPACING: f32 = 7.0;

/// One period of the hatch: a line x + y = 0 (mod the period), 1.5 points wide and smoothed
/// over one texel, over the hatch's background.
fn hatch_image() -> ColorImage {
    use nimscope_core::raster::colors::{HATCH_BACK, HATCH_LINE};
    let n = HATCH_TEXELS;
    let per_point = n as f32 / HATCH_SPACING;
    let pixels = (0..n * n)
        .map(|i| {
            let (x, y) = ((i % n) as f32 + 0.5, (i / n) as f32 + 0.5);
            // distance in points from the nearest line, across it
            let along = ((x + y) / per_point).rem_euclid(HATCH_SPACING);
            let across = along.min(HATCH_SPACING - along) / std::f32::consts::SQRT_2;
            let cover = (0.75 - across + 0.5 / per_point).clamp(0.0, 1.0 / per_point) * per_point;
            let mix = |c: usize| {
                let (b, l) = (f32::from(HATCH_BACK[c]), f32::from(HATCH_LINE[c]));
                (b + (l - b) * cover).round() as u8
            };
            Color32::from_rgb(mix(0), mix(1), mix(2))
        })
        .collect();
    ColorImage::new([n, n], pixels)
}

#[cfg(test)]
mod tests {
    use super::{Color32, HATCH_SPACING, HATCH_TEXELS, hatch_image};
    use nimscope_core::raster::colors::{HATCH_BACK, HATCH_LINE};

    /// The hatch texture shows lines 1.5 points wide, 7 points apart along the axes, so
    /// 7/√2 apart across: they cover 1.5·√2/7 of the area (about 30 %), and each row is the
    /// row above it moved one texel (lines at 45°, so the period repeats without a seam).
    #[test]
    fn the_hatch_texture_covers_the_area_its_lines_do() {
        let image = hatch_image();
        let n = HATCH_TEXELS;
        let cover = |c: &Color32| {
            (f32::from(c.r()) - f32::from(HATCH_BACK[0])) / (f32::from(HATCH_LINE[0]) - f32::from(HATCH_BACK[0]))
        };
        let mean = image.pixels.iter().map(cover).sum::<f32>() / (n * n) as f32;
        let want = 1.5 * std::f32::consts::SQRT_2 / HATCH_SPACING;
        assert!((mean - want).abs() < 0.02, "covered {mean}, lines cover {want}");
        for y in 1..n {
            for x in 0..n {
                assert_eq!(
                    image.pixels[y * n + x],
                    image.pixels[(y - 1) * n + (x + 1) % n],
                    "({x}, {y})"
                );
            }
        }
    }
}
