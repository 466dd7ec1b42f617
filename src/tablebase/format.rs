//! The table file format (see `docs/reference/tablebase-format.md`): a fixed header, a block-offset table,
//! then independently compressed zstd blocks of packed entries.

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use crate::rules::variant::Variant;
use crate::tablebase::material::Material;

/// First eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DRTB\r\n\x1a\n";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// The index scheme of `index.rs` (men by allowed squares, then kings, colex ranks).
pub const INDEX_SCHEME: u8 = 1;
/// The most positions a block may hold (a block is decompressed whole into memory).
pub const MAX_BLOCK_POSITIONS: u32 = 1 << 20;
/// Bytes of the fixed header.
pub const HEADER_LEN: usize = 96;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableKind {
    /// Win/draw/loss, two bits per position, capture positions as "don't care".
    Wdl,
    /// Distance to win in plies for every position, one or two bytes per position.
    Dtw,
}

impl TableKind {
    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "wdl",
            TableKind::Dtw => "dtw",
        }
    }

    fn code(self) -> u8 {
        match self {
            TableKind::Wdl => 1,
            TableKind::Dtw => 2,
        }
    }

    /// Positions per block the generator writes: a WDL block holds 16 KiB of entries before
    /// compression (larger blocks compress a sixth better than 4 KiB ones, and WDL tables are
    /// the ones kept in memory), a DTW block 4 or 8 KiB (one or two bytes an entry). Readers
    /// take the size from each file's header.
    pub fn block_positions(self) -> u32 {
        match self {
            TableKind::Wdl => 65_536,
            TableKind::Dtw => 4_096,
        }
    }
}

/// What a generation builds: win/draw/loss only, or the distances too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// WDL files only: enough for adjudicating won and drawn endings and for the engine's
    /// search, at a fraction of the disk and of the memory a job reads.
    Wdl,
    /// DTW and WDL files: the distances the move limits of the rules need.
    #[default]
    Dtw,
}

impl Metric {
    /// The files a job of this metric writes.
    pub fn kinds(self) -> &'static [TableKind] {
        match self {
            Metric::Wdl => &[TableKind::Wdl],
            Metric::Dtw => &[TableKind::Dtw, TableKind::Wdl],
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Wdl => "wdl",
            Metric::Dtw => "dtw",
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> Result<Metric, String> {
        match s {
            "wdl" => Ok(Metric::Wdl),
            "dtw" => Ok(Metric::Dtw),
            other => Err(format!("{other:?}: expected wdl or dtw")),
        }
    }
}

/// WDL codes in a WDL file (two bits each, four to a byte, first position in the low bits).
pub const WDL_DRAW: u8 = 0;
/// The side to move wins.
pub const WDL_WIN: u8 = 1;
/// The side to move loses.
pub const WDL_LOSS: u8 = 2;

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::International => 1,
        Variant::Frisian => 2,
        Variant::English => 3,
    }
}

/// The fixed header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// WDL or DTW.
    pub kind: TableKind,
    /// The variant whose rules were played.
    pub variant: Variant,
    /// The slice's material.
    pub material: Material,
    /// Bits per entry (2 for WDL, 8 or 16 for DTW).
    pub entry_bits: u8,
    /// Positions in the slice.
    pub positions: u64,
    /// Positions won by the side to move (all positions, capture positions included).
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Lost positions.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// Positions per block.
    pub block_positions: u32,
    /// Number of blocks.
    pub block_count: u32,
    /// Bytes after the header: block table and blocks.
    pub payload_len: u64,
    /// xxh3-64 of the payload.
    pub checksum: u64,
}

impl Header {
    fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = self.kind.code();
        b[11] = variant_code(self.variant);
        b[12] = INDEX_SCHEME;
        b[13] = self.entry_bits;
        b[14..18].copy_from_slice(&[
            self.material.men[0],
            self.material.kings[0],
            self.material.men[1],
            self.material.kings[1],
        ]);
        b[24..32].copy_from_slice(&self.positions.to_le_bytes());
        b[32..40].copy_from_slice(&self.wins.to_le_bytes());
        b[40..48].copy_from_slice(&self.draws.to_le_bytes());
        b[48..56].copy_from_slice(&self.losses.to_le_bytes());
        b[56..60].copy_from_slice(&self.longest_win.to_le_bytes());
        b[60..64].copy_from_slice(&self.block_positions.to_le_bytes());
        b[64..68].copy_from_slice(&self.block_count.to_le_bytes());
        b[72..80].copy_from_slice(&self.payload_len.to_le_bytes());
        b[80..88].copy_from_slice(&self.checksum.to_le_bytes());
        let own = xxh3_64(&b[..88]);
        b[88..96].copy_from_slice(&own.to_le_bytes());
        b
    }

    /// Reads and checks a header; the error says what is wrong.
    pub fn parse(b: &[u8]) -> Result<Header, String> {
        if b.len() < HEADER_LEN {
            return Err(format!(
                "{} bytes is too short for a table file (header is {HEADER_LEN})",
                b.len()
            ));
        }
        if b[0..8] != MAGIC {
            return Err("not a draughts table file (bad magic)".into());
        }
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let version = u16_at(8);
        if version != VERSION {
            return Err(format!(
                "format version {version}, this program reads version {VERSION}"
            ));
        }
        if u64_at(88) != xxh3_64(&b[..88]) {
            return Err("header checksum mismatch (the header is damaged)".into());
        }
        let kind = match b[10] {
            1 => TableKind::Wdl,
            2 => TableKind::Dtw,
            k => return Err(format!("unknown table kind {k}")),
        };
        let variant = match b[11] {
            1 => Variant::International,
            2 => Variant::Frisian,
            3 => Variant::English,
            v => return Err(format!("unknown variant code {v}")),
        };
        if b[12] != INDEX_SCHEME {
            return Err(format!("unknown index scheme {}", b[12]));
        }
        let entry_bits = b[13];
        let bits_ok = match kind {
            TableKind::Wdl => entry_bits == 2,
            TableKind::Dtw => entry_bits == 8 || entry_bits == 16,
        };
        if !bits_ok {
            return Err(format!("{entry_bits} bits per entry is not valid here"));
        }
        let material = Material::new(b[14], b[15], b[16], b[17]);
        let h = Header {
            kind,
            variant,
            material,
            entry_bits,
            positions: u64_at(24),
            wins: u64_at(32),
            draws: u64_at(40),
            losses: u64_at(48),
            longest_win: u32_at(56),
            block_positions: u32_at(60),
            block_count: u32_at(64),
            payload_len: u64_at(72),
            checksum: u64_at(80),
        };
        if h.block_positions == 0
            || h.block_positions > MAX_BLOCK_POSITIONS
            || !h.block_positions.is_multiple_of(4)
            || h.positions.div_ceil(h.block_positions as u64) != h.block_count as u64
        {
            return Err("block layout does not fit the position count".into());
        }
        if h.wins + h.draws + h.losses != h.positions {
            return Err("win, draw and loss counts do not add up to the positions".into());
        }
        Ok(h)
    }

    /// Bytes of one block's entries before compression.
    pub fn raw_block_len(&self) -> usize {
        self.block_positions as usize * self.entry_bits as usize / 8
    }
}

/// Compresses packed entries into a complete file image: header, block table, blocks.
#[cfg(test)]
pub fn build(header: Header, raw: &[u8], level: i32) -> Vec<u8> {
    let block_len = header.raw_block_len();
    let at = |i: usize| (i * block_len).min(raw.len());
    build_blocks(header, level, |i| raw[at(i)..at(i + 1)].to_vec())
}

/// Compresses a file image from its blocks of packed entries, made on demand by `block(i)` (each
/// [`Header::raw_block_len`] bytes), so that a table never needs to be whole in memory
/// uncompressed.
pub fn build_blocks(
    mut header: Header,
    level: i32,
    block: impl Fn(usize) -> Vec<u8> + Sync,
) -> Vec<u8> {
    header.block_count = header.positions.div_ceil(header.block_positions as u64) as u32;
    let blocks: Vec<Vec<u8>> = (0..header.block_count as usize)
        .into_par_iter()
        .map(|i| zstd::bulk::compress(&block(i), level).expect("compressing a memory buffer"))
        .collect();
    let table_len = (blocks.len() + 1) * 8;
    let mut payload = Vec::with_capacity(table_len + blocks.iter().map(Vec::len).sum::<usize>());
    let mut offset = table_len as u64;
    payload.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        payload.extend_from_slice(&offset.to_le_bytes());
    }
    for b in &blocks {
        payload.extend_from_slice(b);
    }
    header.payload_len = payload.len() as u64;
    header.checksum = xxh3_64(&payload);
    let mut file = header.to_bytes().to_vec();
    file.extend_from_slice(&payload);
    file
}

/// A validated view of a whole table file.
#[derive(Debug)]
pub struct TableView<'a> {
    /// The header.
    pub header: Header,
    payload: &'a [u8],
}

impl<'a> TableView<'a> {
    /// Checks header, size, checksum and block table of a file image.
    pub fn new(bytes: &'a [u8]) -> Result<TableView<'a>, String> {
        let header = Header::parse(bytes)?;
        let expected = HEADER_LEN as u64 + header.payload_len;
        if bytes.len() as u64 != expected {
            return Err(format!(
                "file is {} bytes, its header says {expected} (truncated or extended)",
                bytes.len()
            ));
        }
        let payload = &bytes[HEADER_LEN..];
        if xxh3_64(payload) != header.checksum {
            return Err("payload checksum mismatch (the file is damaged)".into());
        }
        let table_len = (header.block_count as usize + 1) * 8;
        if payload.len() < table_len {
            return Err("block table is cut short".into());
        }
        let view = TableView { header, payload };
        let mut last = table_len as u64;
        if view.offset(0) != last {
            return Err("block table does not start after itself".into());
        }
        for i in 1..=view.header.block_count as usize {
            let o = view.offset(i);
            if o < last || o > payload.len() as u64 {
                return Err(format!("block {} has a bad offset", i - 1));
            }
            last = o;
        }
        if last != payload.len() as u64 {
            return Err("blocks do not fill the payload".into());
        }
        Ok(view)
    }

    /// A view of a file image already checked by [`TableView::new`].
    pub fn checked(bytes: &'a [u8], header: Header) -> TableView<'a> {
        TableView {
            header,
            payload: &bytes[HEADER_LEN..],
        }
    }

    fn offset(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.payload[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
    }

    /// The compressed bytes of block `i`.
    pub fn block(&self, i: usize) -> &'a [u8] {
        &self.payload[self.offset(i) as usize..self.offset(i + 1) as usize]
    }

    /// Decompresses block `i`, checking its length.
    pub fn decompress(&self, i: usize) -> Result<Vec<u8>, String> {
        thread_local! {
            // A decompression context is costly to set up; each thread keeps one.
            static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        let want = self.raw_len_of(i);
        let out = CONTEXT.with(|cell| {
            let mut cell = cell.borrow_mut();
            if cell.is_none() {
                *cell = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
            }
            let context = cell.as_mut().expect("set just above");
            context
                .decompress(self.block(i), self.header.raw_block_len())
                .map_err(|e| e.to_string())
        });
        let out = out.map_err(|e| format!("block {i} does not decompress: {e}"))?;
        if out.len() < want {
            return Err(format!(
                "block {i} holds {} bytes, expected {want}",
                out.len()
            ));
        }
        Ok(out)
    }

    fn raw_len_of(&self, i: usize) -> usize {
        let bp = self.header.block_positions as u64;
        let positions = (self.header.positions - i as u64 * bp).min(bp);
        (positions * self.header.entry_bits as u64).div_ceil(8) as usize
    }

    /// The entries of block `i` as DTW codes (for DTW files) or WDL codes.
    pub fn decode_block(&self, i: usize) -> Result<Vec<u16>, String> {
        let bp = self.header.block_positions as u64;
        let mut out = vec![0; (self.header.positions - i as u64 * bp).min(bp) as usize];
        self.decode_into(i, &mut out)?;
        Ok(out)
    }

    /// Decodes block `i` into `out`, which holds as many entries as the block.
    fn decode_into(&self, i: usize, out: &mut [u16]) -> Result<(), String> {
        let block = self.decompress(i)?;
        let bits = self.header.entry_bits;
        for (j, code) in out.iter_mut().enumerate() {
            *code = entry(&block, bits, j);
        }
        Ok(())
    }

    /// All entries of a two-bit (WDL) table as the file packs them, four to a byte, first
    /// position in the low bits: a quarter of a byte a position in memory.
    pub fn decode_packed(&self) -> Result<Vec<u8>, String> {
        let h = &self.header;
        if h.entry_bits != 2 || !h.block_positions.is_multiple_of(4) {
            return Err(format!(
                "{} bits a position in blocks of {}: not a WDL table",
                h.entry_bits, h.block_positions
            ));
        }
        let mut out = vec![0u8; h.positions.div_ceil(4) as usize];
        out.par_chunks_mut(h.block_positions as usize / 4)
            .enumerate()
            .try_for_each(|(i, chunk)| {
                let block = self.decompress(i)?;
                chunk.copy_from_slice(&block[..chunk.len()]);
                Ok::<(), String>(())
            })?;
        Ok(out)
    }

    /// All entries, decompressed in parallel, as DTW codes (for DTW files) or WDL codes.
    pub fn decode_all(&self) -> Result<Vec<u16>, String> {
        let h = &self.header;
        let mut out = vec![0u16; h.positions as usize];
        out.par_chunks_mut(h.block_positions as usize)
            .enumerate()
            .try_for_each(|(i, chunk)| self.decode_into(i, chunk))?;
        Ok(out)
    }
}

/// Entry `i` of a decompressed block.
#[inline]
pub fn entry(block: &[u8], entry_bits: u8, i: usize) -> u16 {
    match entry_bits {
        2 => ((block[i / 4] >> (2 * (i % 4))) & 3) as u16,
        8 => block[i] as u16,
        _ => u16::from_le_bytes([block[2 * i], block[2 * i + 1]]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(kind: TableKind, positions: u64) -> (Header, Vec<u8>) {
        let entry_bits = if kind == TableKind::Wdl { 2 } else { 8 };
        let h = Header {
            kind,
            variant: Variant::English,
            material: Material::new(0, 2, 0, 1),
            entry_bits,
            positions,
            wins: positions,
            draws: 0,
            losses: 0,
            longest_win: 7,
            block_positions: kind.block_positions(),
            block_count: 0,
            payload_len: 0,
            checksum: 0,
        };
        let raw: Vec<u8> = (0..(positions * entry_bits as u64).div_ceil(8))
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        (h, raw)
    }

    #[test]
    fn a_built_file_reads_back() {
        for kind in [TableKind::Wdl, TableKind::Dtw] {
            let (h, raw) = sample(kind, 40_000);
            let file = build(h, &raw, 3);
            let view = TableView::new(&file).expect("valid file");
            assert_eq!(view.header.positions, 40_000);
            let codes = view.decode_all().expect("decodes");
            assert_eq!(codes.len(), 40_000);
            let bits = view.header.entry_bits;
            for (i, &c) in codes.iter().enumerate().step_by(97) {
                let bp = view.header.block_positions as usize;
                let block = view.decompress(i / bp).expect("block");
                assert_eq!(entry(&block, bits, i % bp), c);
                let raw_entry = entry(&raw, bits, i);
                assert_eq!(c, raw_entry);
            }
        }
    }

    #[test]
    fn damage_is_reported() {
        let (h, raw) = sample(TableKind::Dtw, 10_000);
        let file = build(h, &raw, 3);
        let cut = &file[..file.len() - 1];
        assert!(TableView::new(cut).unwrap_err().contains("truncated"));
        for at in [3, 20, 60, 100, file.len() - 2] {
            let mut bad = file.clone();
            bad[at] ^= 0x40;
            assert!(TableView::new(&bad).is_err(), "flip at {at} must be caught");
        }
        assert!(TableView::new(&[]).is_err());
        assert!(TableView::new(b"hello").is_err());
    }
}
