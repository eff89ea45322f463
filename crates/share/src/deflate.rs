//! Raw deflate (RFC 1951) with a preset dictionary, at the highest level.
//!
//! A dictionary is text both sides know, that back-references may point into. The
//! compressor reads it first and flushes (a sync flush: byte-aligned, window kept), and
//! only what it writes after that is kept. The decompressor puts the dictionary in front
//! of that as uncompressed "stored" blocks, so the concatenation is one ordinary deflate
//! stream whose output starts with the dictionary:
//!
//! ```text
//! compress:   [dict ... SYNC] [data ... FINAL]      keep only the second part (B)
//! decompress: stored(dict) ++ B  ->  dict ++ data   drop the first dict.len() bytes
//! ```
//!
//! Decoding does not depend on how the compressor encoded the dictionary, only on its
//! bytes, so a link keeps opening with any later version of the deflate crate.

use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

use crate::LinkError;

/// miniz_oxide's highest level ("uber").
const LEVEL: i32 = 10;
/// Largest stored block (its length field is 16 bits).
const STORED_MAX: usize = 65_535;

fn run(c: &mut CompressorOxide, mut input: &[u8], flush: TDEFLFlush, out: &mut Vec<u8>) {
    let mut buf = [0u8; 4096];
    loop {
        let (status, used, written) = compress(c, input, &mut buf, flush);
        out.extend_from_slice(&buf[..written]);
        input = &input[used.min(input.len())..];
        match status {
            TDEFLStatus::Done => return,
            // Okay with input left or a full buffer: go on; otherwise the flush is complete.
            TDEFLStatus::Okay if !input.is_empty() || written == buf.len() => {}
            _ => return,
        }
    }
}

/// `data` deflated with `dict` as the preset dictionary (part B above).
pub fn compress_with_dict(dict: &[u8], data: &[u8]) -> Vec<u8> {
    let flags = create_comp_flags_from_zip_params(LEVEL, 0, 0);
    let mut c = CompressorOxide::new(flags);
    let mut discard = Vec::new();
    if !dict.is_empty() {
        run(&mut c, dict, TDEFLFlush::Sync, &mut discard);
    }
    let mut out = Vec::new();
    run(&mut c, data, TDEFLFlush::Finish, &mut out);
    out
}

/// Non-final stored blocks holding `dict`.
fn stored(dict: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(dict.len() + 5 * (dict.len() / STORED_MAX + 1));
    for chunk in dict.chunks(STORED_MAX) {
        let n = chunk.len() as u16;
        // BFINAL=0, BTYPE=00, then padding to the byte boundary: one zero byte.
        out.push(0);
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(!n).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out
}

/// Inflates part B with `dict`, refusing more than `max_bytes` of output and any byte
/// after the end of the compressed stream.
pub fn decompress_with_dict(dict: &[u8], b: &[u8], max_bytes: usize) -> Result<Vec<u8>, LinkError> {
    let mut input = stored(dict);
    let prefix = input.len();
    input.extend_from_slice(b);
    let limit = dict.len() + max_bytes;
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0u8; (dict.len() + b.len().saturating_mul(4)).clamp(1024, limit.max(1024))];
    let mut d = Box::<DecompressorOxide>::default();
    let (mut in_pos, mut out_pos) = (0usize, 0usize);
    loop {
        let (status, used, written) =
            decompress(&mut d, &input[in_pos..], &mut out, out_pos, flags);
        in_pos += used;
        out_pos += written;
        match status {
            TINFLStatus::Done => break,
            TINFLStatus::HasMoreOutput if out.len() < limit => {
                let grow = out.len().saturating_mul(2).min(limit);
                out.resize(grow, 0);
            }
            TINFLStatus::HasMoreOutput => return Err(LinkError::TooLarge { limit: max_bytes }),
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(LinkError::Truncated)
            }
            _ => return Err(LinkError::BadDeflate),
        }
    }
    if out_pos > limit {
        return Err(LinkError::TooLarge { limit: max_bytes });
    }
    // The dictionary's stored blocks were read whole, or the stream ended inside them.
    if in_pos < prefix || out_pos < dict.len() {
        return Err(LinkError::BadDeflate);
    }
    if in_pos != input.len() {
        return Err(LinkError::Tampered);
    }
    out.truncate(out_pos);
    Ok(out.split_off(dict.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_makes_known_text_tiny_and_round_trips() {
        let dict =
            b"the quick brown fox jumps over the lazy dog, again and again and again".repeat(3);
        let data = b"the lazy dog jumps over the quick brown fox, again and again";
        let with = compress_with_dict(&dict, data);
        let without = compress_with_dict(b"", data);
        assert!(
            with.len() * 2 < without.len(),
            "{} vs {}",
            with.len(),
            without.len()
        );
        assert_eq!(decompress_with_dict(&dict, &with, 1000).unwrap(), data);
        assert_eq!(decompress_with_dict(b"", &without, 1000).unwrap(), data);
    }

    #[test]
    fn limits_and_damage_are_reported() {
        let data = vec![b'a'; 10_000];
        let z = compress_with_dict(b"", &data);
        assert_eq!(
            decompress_with_dict(b"", &z, 9_999),
            Err(LinkError::TooLarge { limit: 9_999 })
        );
        assert_eq!(decompress_with_dict(b"", &z, 10_000).unwrap(), data);
        assert_eq!(
            decompress_with_dict(b"", &z[..z.len() - 2], 20_000),
            Err(LinkError::Truncated)
        );
        let mut extra = z.clone();
        extra.push(0);
        assert_eq!(
            decompress_with_dict(b"", &extra, 20_000),
            Err(LinkError::Tampered)
        );
        // Block type 11 is reserved: invalid at once.
        assert_eq!(
            decompress_with_dict(b"", &[0xff, 0xff], 100),
            Err(LinkError::BadDeflate)
        );
    }

    #[test]
    fn a_dictionary_longer_than_one_stored_block_works() {
        let dict: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let data = dict[150_000..151_000].to_vec();
        let z = compress_with_dict(&dict, &data);
        assert_eq!(decompress_with_dict(&dict, &z, 2_000).unwrap(), data);
    }
}
