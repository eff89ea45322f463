//! A zip archive of text files, stored (not compressed), written in memory: the
//! playground's "download the whole project" of a code export.
//!
//! Stored, not deflated: an export is a few tens of KB of text, and a deflate encoder (the
//! `zip` crate with its defaults) would add far more to the app's wasm than it saves in a
//! download. Measured on wasm32 (opt-level z, LTO, gzip -9 of a test module): `zip` 2.6
//! without default features +45 KB, `crc32fast` (16 KB of slice-by-16 tables) +18 KB, the
//! `crc` crate's one-table CRC-32 +1.3 KB; so the CRC comes from `crc` and the few
//! records below are written here.
//!
//! The format (PKWARE APPNOTE.TXT 6.3, sections 4.3.7, 4.3.12, 4.3.16): per file a local
//! header and the bytes, then the central directory (one record per file, with the Unix
//! mode in the external attributes so that `run.sh` unpacks executable), then the end
//! record. Names are UTF-8 (flag bit 11). Times are the DOS epoch (1980-01-01 00:00), so
//! the same files give the same bytes. No ZIP64: a file or the archive over 4 GiB, or over
//! 65,535 files, is an error, not a broken archive.

use crc::{Crc, CRC_32_ISO_HDLC};

/// The CRC of zip entries (the CRC-32 of ISO 3309 / ITU-T V.42, as gzip and PNG).
const CRC32: Crc<u32> = Crc::<u32>::new(&CRC_32_ISO_HDLC);

const LOCAL_HEADER_SIG: u32 = 0x0403_4b50;
const CENTRAL_HEADER_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
/// Version 2.0 of the format (the oldest that unpackers read with directories and
/// attributes); the high byte of "made by" is the host system, 3 = Unix (its mode bits).
const VERSION_NEEDED: u16 = 20;
const MADE_BY_UNIX: u16 = (3 << 8) | VERSION_NEEDED;
/// General purpose flag bit 11: the name is UTF-8.
const FLAG_UTF8: u16 = 1 << 11;
const METHOD_STORED: u16 = 0;
/// 1980-01-01 00:00:00 in MS-DOS date and time form (day 1, month 1, year 1980 + 0).
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = (1 << 5) | 1;
/// A regular file (`S_IFREG`) with its permission bits.
const S_IFREG: u32 = 0o100_000;
pub const MODE_FILE: u32 = 0o644;
pub const MODE_EXECUTABLE: u32 = 0o755;

/// One file of the archive: its path inside it ('/' separated), bytes and Unix mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    pub path: &'a str,
    pub data: &'a [u8],
    pub mode: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZipError {
    /// A size or offset does not fit the 32-bit fields (no ZIP64 here).
    TooLarge(String),
    /// More entries than the 16-bit count holds.
    TooManyFiles(usize),
    /// An empty or absolute path, or one with `..` or `\`: unpackers would refuse it or
    /// write outside the folder.
    BadPath(String),
}

impl std::fmt::Display for ZipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ZipError::TooLarge(p) => write!(f, "zip: {p} is over 4 GiB (no ZIP64)"),
            ZipError::TooManyFiles(n) => write!(f, "zip: {n} files, at most 65535"),
            ZipError::BadPath(p) => write!(f, "zip: bad path {p:?}"),
        }
    }
}

fn u32_of(n: usize, what: &str) -> Result<u32, ZipError> {
    u32::try_from(n).map_err(|_| ZipError::TooLarge(what.to_string()))
}

fn check_path(p: &str) -> Result<(), ZipError> {
    let bad = p.is_empty()
        || p.starts_with('/')
        || p.contains('\\')
        || p.split('/').any(|part| part.is_empty() || part == "..");
    if bad || u16::try_from(p.len()).is_err() {
        return Err(ZipError::BadPath(p.to_string()));
    }
    Ok(())
}

struct Out(Vec<u8>);

impl Out {
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
}

/// The archive of `entries`, in their order.
pub fn zip(entries: &[Entry]) -> Result<Vec<u8>, ZipError> {
    let count = u16::try_from(entries.len()).map_err(|_| ZipError::TooManyFiles(entries.len()))?;
    let mut out = Out(Vec::new());
    let mut central = Out(Vec::new());
    for e in entries {
        check_path(e.path)?;
        let offset = u32_of(out.0.len(), "the archive")?;
        let size = u32_of(e.data.len(), e.path)?;
        let crc = CRC32.checksum(e.data);
        // check_path bounded the name's length.
        let name_len = e.path.len() as u16;
        out.u32(LOCAL_HEADER_SIG);
        out.u16(VERSION_NEEDED);
        out.u16(FLAG_UTF8);
        out.u16(METHOD_STORED);
        out.u16(DOS_TIME);
        out.u16(DOS_DATE);
        out.u32(crc);
        out.u32(size); // compressed = stored size
        out.u32(size);
        out.u16(name_len);
        out.u16(0); // extra field length
        out.bytes(e.path.as_bytes());
        out.bytes(e.data);

        central.u32(CENTRAL_HEADER_SIG);
        central.u16(MADE_BY_UNIX);
        central.u16(VERSION_NEEDED);
        central.u16(FLAG_UTF8);
        central.u16(METHOD_STORED);
        central.u16(DOS_TIME);
        central.u16(DOS_DATE);
        central.u32(crc);
        central.u32(size);
        central.u32(size);
        central.u16(name_len);
        central.u16(0); // extra field length
        central.u16(0); // comment length
        central.u16(0); // disk number start
        central.u16(0); // internal attributes
        central.u32((S_IFREG | e.mode) << 16); // external attributes: the Unix mode
        central.u32(offset);
        central.bytes(e.path.as_bytes());
    }
    let central_offset = u32_of(out.0.len(), "the archive")?;
    let central_size = u32_of(central.0.len(), "the central directory")?;
    out.bytes(&central.0);
    out.u32(END_SIG);
    out.u16(0); // this disk
    out.u16(0); // the disk with the central directory
    out.u16(count);
    out.u16(count);
    out.u32(central_size);
    out.u32(central_offset);
    out.u16(0); // comment length
    u32_of(out.0.len(), "the archive")?;
    Ok(out.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le16(b: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([b[at], b[at + 1]])
    }
    fn le32(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    /// Reads the archive back from its end record and central directory, as unpackers
    /// do: (path, data, mode) per entry, checking each local header and CRC on the way.
    fn read(z: &[u8]) -> Vec<(String, Vec<u8>, u32)> {
        let end = z.len() - 22;
        assert_eq!(le32(z, end), END_SIG);
        let n = le16(z, end + 10) as usize;
        let mut at = le32(z, end + 16) as usize;
        assert_eq!(
            at + le32(z, end + 12) as usize,
            end,
            "the directory ends at the end record"
        );
        let mut out = Vec::new();
        for _ in 0..n {
            assert_eq!(le32(z, at), CENTRAL_HEADER_SIG);
            assert_eq!(le16(z, at + 8) & FLAG_UTF8, FLAG_UTF8);
            let crc = le32(z, at + 16);
            let size = le32(z, at + 24) as usize;
            let name_len = le16(z, at + 28) as usize;
            let mode = le32(z, at + 38) >> 16;
            let local = le32(z, at + 42) as usize;
            let name = String::from_utf8(z[at + 46..at + 46 + name_len].to_vec()).unwrap();
            assert_eq!(le32(z, local), LOCAL_HEADER_SIG);
            assert_eq!(le32(z, local + 14), crc, "local and central CRC agree");
            let data_at = local + 30 + le16(z, local + 26) as usize;
            let data = z[data_at..data_at + size].to_vec();
            assert_eq!(CRC32.checksum(&data), crc);
            out.push((name, data, mode));
            at += 46 + name_len;
        }
        out
    }

    #[test]
    fn writes_what_a_reader_reads_back() {
        let files = [
            Entry {
                path: "p/Scenario.java",
                data: "// 注释\nclass A {}\n".as_bytes(),
                mode: MODE_FILE,
            },
            Entry {
                path: "p/run.sh",
                data: b"#!/bin/sh\n",
                mode: MODE_EXECUTABLE,
            },
            Entry {
                path: "p/empty",
                data: b"",
                mode: MODE_FILE,
            },
        ];
        let z = zip(&files).unwrap();
        let back = read(&z);
        assert_eq!(back.len(), 3);
        for (e, (path, data, mode)) in files.iter().zip(&back) {
            assert_eq!(e.path, path);
            assert_eq!(e.data, &data[..]);
            assert_eq!(S_IFREG | e.mode, *mode);
        }
        // The CRC is the standard one (the check value of CRC-32/ISO-HDLC).
        assert_eq!(CRC32.checksum(b"123456789"), 0xCBF4_3926);
        // Deterministic: no clock in the archive.
        assert_eq!(zip(&files).unwrap(), z);
    }

    #[test]
    fn an_empty_archive_is_just_the_end_record() {
        let z = zip(&[]).unwrap();
        assert_eq!(z.len(), 22);
        assert!(read(&z).is_empty());
    }

    #[test]
    fn refuses_paths_that_escape_the_folder() {
        for p in ["", "/etc/x", "a/../b", "a\\b", "a//b"] {
            let e = Entry {
                path: p,
                data: b"",
                mode: MODE_FILE,
            };
            assert_eq!(zip(&[e]), Err(ZipError::BadPath(p.to_string())), "{p:?}");
        }
    }
}
