//! PNG files for figures: RGBA pixels with the figure's provenance as UTF-8 text chunks
//! (`iTXt`: a title may be `Zeruclid φ`). No timestamps: the same figure gives the same bytes.
//! Files are written by [`crate::files::write_atomic`].

use image::RgbaImage;

/// Encodes `image` as a PNG with `text` as iTXt chunks (keyword, UTF-8 value), in the order
/// given. Keywords are Latin-1, 1 to 79 characters (ours are fixed ASCII words).
pub fn encode(image: &RgbaImage, text: &[(String, String)]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, image.width(), image.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        for (k, v) in text {
            encoder.add_itxt_chunk(k.clone(), v.clone())?;
        }
        let mut writer = encoder.write_header()?;
        writer.write_image_data(image.as_raw())?;
        writer.finish()?;
    }
    Ok(out)
}

/// The text chunks of a PNG file (UTF-8 `iTXt`, then Latin-1 `tEXt` of older figures), for
/// tests and inspection.
pub fn read_text_chunks(bytes: &[u8]) -> Result<Vec<(String, String)>, png::DecodingError> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info()?;
    let info = reader.info();
    let mut out = Vec::new();
    for t in &info.utf8_text {
        out.push((t.keyword.clone(), t.get_text()?));
    }
    out.extend(
        info.uncompressed_latin1_text
            .iter()
            .map(|t| (t.keyword.clone(), t.text.clone())),
    );
    Ok(out)
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
            ("Title".into(), "Zeruclid φ: G(1, a, b) ∈ ℕ".into()),
        ];
        let a = encode(&img, &text).unwrap();
        assert_eq!(a, encode(&img, &text).unwrap());
        assert_eq!(read_text_chunks(&a).unwrap(), text);
        let back = image::load_from_memory(&a).unwrap().to_rgba8();
        assert_eq!(back, img);
    }
}
