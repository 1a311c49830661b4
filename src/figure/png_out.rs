//! PNG files for figures: RGBA pixels with the figure's provenance as text chunks, written
//! atomically (a temporary file beside the target, then a rename) so a failed export leaves
//! nothing half-written. No timestamps: the same figure gives the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};

use image::RgbaImage;

/// Encodes `image` as a PNG with `text` as tEXt chunks (keyword, value), in the order given.
pub fn encode(image: &RgbaImage, text: &[(String, String)]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, image.width(), image.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        for (k, v) in text {
            encoder.add_text_chunk(k.clone(), v.clone())?;
        }
        let mut writer = encoder.write_header()?;
        writer.write_image_data(image.as_raw())?;
        writer.finish()?;
    }
    Ok(out)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so
/// readers see either the old file or the whole new one. Removes the temporary file on error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `dir/.name.tmp-PID` beside `path`.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// The tEXt chunks of a PNG file, for tests and `nimscope export --check`-style inspection.
pub fn read_text_chunks(bytes: &[u8]) -> Result<Vec<(String, String)>, png::DecodingError> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info()?;
    Ok(reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .map(|t| (t.keyword.clone(), t.text.clone()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_chunks_round_trip_and_bytes_are_deterministic() {
        let img = RgbaImage::from_fn(7, 5, |x, y| image::Rgba([x as u8 * 30, y as u8 * 40, 9, 255]));
        let text = vec![
            ("Software".to_string(), "nimscope".to_string()),
            ("k".into(), "v w".into()),
        ];
        let a = encode(&img, &text).unwrap();
        assert_eq!(a, encode(&img, &text).unwrap());
        assert_eq!(read_text_chunks(&a).unwrap(), text);
        let back = image::load_from_memory(&a).unwrap().to_rgba8();
        assert_eq!(back, img);
    }

    #[test]
    fn failed_writes_leave_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("nimscope-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("missing-folder").join("x.png");
        assert!(write_atomic(&target, b"abc").is_err());
        let ok = dir.join("x.png");
        write_atomic(&ok, b"abc").unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"abc");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
