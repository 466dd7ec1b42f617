//! Probing: answers WDL and DTW questions for positions from the table files of a directory.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use memmap2::Mmap;

use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::variant::Variant;
use crate::tablebase::blocks::BlockCache;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, HEADER_LEN, Header, TableKind, TableView};
use crate::tablebase::fs;
use crate::tablebase::index::Indexer;
use crate::tablebase::material::Material;
use crate::tablebase::store::{check_identity, normalize};
use crate::tablebase::value::{Dtw, Wdl};

/// Decompressed blocks kept by default (each 4–16 KiB).
const CACHE_BLOCKS: usize = 1024;

/// One table file, mapped and checked on first use.
struct Table {
    path: PathBuf,
    id: usize,
    mapped: OnceLock<Result<(Mmap, Header), String>>,
}

impl Table {
    fn open(
        &self,
        variant: Variant,
        material: Material,
        kind: TableKind,
    ) -> Result<(&Mmap, &Header), TbError> {
        let mapped = self.mapped.get_or_init(|| {
            let map = fs::map(&self.path).map_err(|e| e.to_string())?;
            let header = TableView::new(&map)?.header;
            check_identity(&header, variant, material, kind)?;
            Ok((map, header))
        });
        match mapped {
            Ok((map, header)) => Ok((map, header)),
            Err(reason) => Err(TbError::Corrupt {
                path: self.path.clone(),
                reason: reason.clone(),
            }),
        }
    }
}

struct Slice {
    ix: Indexer,
    wdl: Option<Table>,
    dtw: Option<Table>,
}

/// Figures of one slice.
#[derive(Clone, Debug)]
pub struct SliceStats {
    /// The slice.
    pub material: Material,
    /// Positions (with this material's side to move).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest win in plies (0 without a DTW file).
    pub longest_win: u32,
    /// Size of the WDL file.
    pub wdl_bytes: u64,
    /// Size of the DTW file (0 when the slice was built for WDL only).
    pub dtw_bytes: u64,
}

/// The tables of one variant in one directory. Files are mapped when first needed and checked
/// (size, header, checksum) before use. Shareable between threads.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    max_pieces: u32,
    slices: HashMap<Material, Slice>,
    cache: BlockCache,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("variant", &self.variant)
            .field("slices", &self.slices.len())
            .finish()
    }
}

fn read_header(path: &Path) -> Result<Header, TbError> {
    let mut bytes = [0u8; HEADER_LEN];
    let mut file = std::fs::File::open(path).map_err(|e| TbError::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    let mut got = 0;
    while got < HEADER_LEN {
        match file.read(&mut bytes[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => {
                return Err(TbError::Io {
                    path: path.to_path_buf(),
                    source: e,
                });
            }
        }
    }
    Header::parse(&bytes[..got]).map_err(|reason| TbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    })
}

impl Tablebase {
    /// Finds the table files in `dir` and reads their headers; maps nothing yet. Fails when the
    /// directory cannot be read, holds no tables, or holds a file that is not a valid table of
    /// the same variant as the others (named in the error).
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TbError> {
        let dir = dir.as_ref().to_path_buf();
        let entries = std::fs::read_dir(&dir).map_err(|e| TbError::Io {
            path: dir.clone(),
            source: e,
        })?;
        let mut found: Vec<(Material, TableKind, PathBuf)> = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|e| TbError::Io {
                    path: dir.clone(),
                    source: e,
                })?
                .path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            let kind = match ext {
                "wdl" => TableKind::Wdl,
                "dtw" => TableKind::Dtw,
                _ => continue,
            };
            if name.starts_with('.') {
                continue;
            }
            let material: Material =
                stem.parse()
                    .map_err(
                        |e: crate::tablebase::material::MaterialError| TbError::Corrupt {
                            path: path.clone(),
                            reason: format!("file name is not a material: {e}"),
                        },
                    )?;
            found.push((material, kind, path));
        }
        if found.is_empty() {
            return Err(TbError::Empty { dir });
        }
        found.sort();
        let mut variant = None;
        let mut slices: HashMap<Material, Slice> = HashMap::new();
        let mut max_pieces = 0;
        for (id, (material, kind, path)) in found.into_iter().enumerate() {
            let header = read_header(&path)?;
            let v = *variant.get_or_insert(header.variant);
            let identity = check_identity(&header, v, material, kind);
            if let Err(reason) = identity {
                return Err(TbError::Corrupt { path, reason });
            }
            max_pieces = max_pieces.max(material.pieces());
            let slice = slices.entry(material).or_insert_with(|| Slice {
                ix: Indexer::new(v.geometry(), material),
                wdl: None,
                dtw: None,
            });
            let table = Table {
                path,
                id,
                mapped: OnceLock::new(),
            };
            match kind {
                TableKind::Wdl => slice.wdl = Some(table),
                TableKind::Dtw => slice.dtw = Some(table),
            }
        }
        Ok(Tablebase {
            dir,
            variant: variant.expect("at least one file was read"),
            max_pieces,
            slices,
            cache: BlockCache::new(CACHE_BLOCKS),
        })
    }

    /// Sets how many decompressed blocks are kept (4–16 KiB each; default 1024).
    pub fn with_cache_blocks(mut self, blocks: usize) -> Tablebase {
        self.cache = BlockCache::new(blocks);
        self
    }

    /// Like [`open`](Self::open), and fails unless the tables are of `variant`.
    pub fn open_for(dir: impl AsRef<Path>, variant: Variant) -> Result<Tablebase, TbError> {
        let tb = Tablebase::open(dir)?;
        if tb.variant != variant {
            return Err(TbError::WrongVariant {
                tables: tb.variant.name(),
                wanted: variant.name(),
            });
        }
        Ok(tb)
    }

    /// The variant of the tables.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most pieces of any slice present.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The directory the tables are in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The materials present, in dependency order.
    pub fn materials(&self) -> Vec<Material> {
        let mut all: Vec<Material> = self.slices.keys().copied().collect();
        all.sort_by_key(|m| (m.pieces(), m.total_men(), m.job(), *m));
        all
    }

    /// Whether the table of `kind` of `material` is present (a set built for WDL only has no
    /// DTW tables).
    pub fn has(&self, material: Material, kind: TableKind) -> bool {
        self.table(material, kind).is_ok()
    }

    /// The header of one table, after checking the whole file.
    pub fn header(&self, material: Material, kind: TableKind) -> Result<Header, TbError> {
        let table = self.table(material, kind)?;
        Ok(table.open(self.variant, material, kind)?.1.clone())
    }

    /// Figures of every slice present (checking each file in full).
    pub fn stats(&self) -> Result<Vec<SliceStats>, TbError> {
        let mut out = Vec::new();
        for m in self.materials() {
            let wdl = self.header(m, TableKind::Wdl)?;
            // A set built for WDL only has no DTW files (and no distances).
            let dtw = match self.has(m, TableKind::Dtw) {
                true => Some(self.header(m, TableKind::Dtw)?),
                false => None,
            };
            let size = |kind| {
                let path = &self.table(m, kind).expect("header read above").path;
                std::fs::metadata(path)
                    .map(|md| md.len())
                    .map_err(|e| TbError::Io {
                        path: path.clone(),
                        source: e,
                    })
            };
            out.push(SliceStats {
                material: m,
                positions: wdl.positions,
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                longest_win: dtw.as_ref().map_or(0, |h| h.longest_win),
                wdl_bytes: size(TableKind::Wdl)?,
                dtw_bytes: match dtw {
                    Some(_) => size(TableKind::Dtw)?,
                    None => 0,
                },
            });
        }
        Ok(out)
    }

    fn table(&self, material: Material, kind: TableKind) -> Result<&Table, TbError> {
        let slice = self.slices.get(&material);
        let table = slice.and_then(|s| match kind {
            TableKind::Wdl => s.wdl.as_ref(),
            TableKind::Dtw => s.dtw.as_ref(),
        });
        table.ok_or_else(|| TbError::Missing {
            dir: self.dir.clone(),
            material,
            kind: kind.extension(),
        })
    }

    /// Checks that a position can be answered; returns its slice and place, or its value when
    /// the game is already decided by material.
    fn locate(
        &self,
        pos: &Position,
        kind: TableKind,
    ) -> Result<Result<(Material, u64), Dtw>, TbError> {
        if pos.variant() != self.variant {
            return Err(TbError::WrongVariant {
                tables: self.variant.name(),
                wanted: pos.variant().name(),
            });
        }
        let (m, p) = normalize(pos);
        if m.side(0) == 0 {
            return Ok(Err(Dtw::Loss(0)));
        }
        if m.side(1) == 0 {
            return Err(TbError::NotAGamePosition);
        }
        if m.pieces() > self.max_pieces {
            return Err(TbError::TooManyPieces {
                pieces: m.pieces(),
                max: self.max_pieces,
            });
        }
        let slice = self.slices.get(&m).ok_or_else(|| TbError::Missing {
            dir: self.dir.clone(),
            material: m,
            kind: kind.extension(),
        })?;
        Ok(Ok((m, slice.ix.rank(p))))
    }

    fn entry(&self, material: Material, kind: TableKind, index: u64) -> Result<u16, TbError> {
        let table = self.table(material, kind)?;
        let (map, header) = table.open(self.variant, material, kind)?;
        let bp = header.block_positions as u64;
        let block_no = index / bp;
        let key = ((table.id as u64) << 40) | block_no;
        let block = self.cache.get(key, || {
            TableView::checked(map, header.clone())
                .decompress(block_no as usize)
                .map_err(|reason| TbError::Corrupt {
                    path: table.path.clone(),
                    reason,
                })
        })?;
        Ok(format::entry(
            &block,
            header.entry_bits,
            (index % bp) as usize,
        ))
    }

    /// Win, draw or loss for the side to move. Positions where the side to move must capture are
    /// resolved by trying every capture.
    pub fn wdl(&self, pos: &Position) -> Result<Wdl, TbError> {
        let (m, index) = match self.locate(pos, TableKind::Wdl)? {
            Ok(found) => found,
            Err(decided) => return Ok(decided.wdl()),
        };
        if pos.has_capture() {
            let mut best = Wdl::Loss;
            for mv in pos.legal_moves().iter() {
                match self.wdl(&pos.play(mv))?.flip() {
                    Wdl::Win => return Ok(Wdl::Win),
                    Wdl::Draw => best = Wdl::Draw,
                    Wdl::Loss => {}
                }
            }
            return Ok(best);
        }
        Ok(match self.entry(m, TableKind::Wdl, index)? as u8 {
            format::WDL_WIN => Wdl::Win,
            format::WDL_LOSS => Wdl::Loss,
            _ => Wdl::Draw,
        })
    }

    /// Win, draw or loss with the distance to the end of the game in plies.
    pub fn dtw(&self, pos: &Position) -> Result<Dtw, TbError> {
        match self.locate(pos, TableKind::Dtw)? {
            Ok((m, index)) => Ok(Dtw::from_code(self.entry(m, TableKind::Dtw, index)?)),
            Err(decided) => Ok(decided),
        }
    }

    /// The distance when the slice holds one: `None` for a slice built for results only
    /// (`--metric wdl`), whose callers fall back on [`Tablebase::wdl`].
    pub fn dtw_if_held(&self, pos: &Position) -> Result<Option<Dtw>, TbError> {
        match self.dtw(pos) {
            Ok(value) => Ok(Some(value)),
            Err(TbError::Missing { kind: "dtw", .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The move the tables prefer in `pos` — the fastest win, else any draw, else the slowest
    /// loss (the first in move order among equals) — with the value it keeps; `None` when
    /// there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Dtw)>, TbError> {
        let mut best: Option<(Move, Dtw)> = None;
        for mv in pos.legal_moves().iter() {
            let value = self.dtw(&pos.play(mv))?.before();
            if best.is_none_or(|(_, b)| value.preference() > b.preference()) {
                best = Some((*mv, value));
            }
        }
        Ok(best)
    }
}

/// Opens the tablebases of a directory for a variant, if there are any (`None` when the
/// directory is missing or holds no tables for it).
pub fn open_if_present(dir: &Path, variant: Variant) -> Result<Option<Arc<Tablebase>>, String> {
    if !dir.is_dir() {
        return Ok(None);
    }
    match Tablebase::open_for(dir, variant) {
        Ok(tb) if tb.max_pieces() > 0 => Ok(Some(Arc::new(tb))),
        Ok(_) => Ok(None),
        Err(e) => Err(format!("tablebases not loaded: {e}")),
    }
}
