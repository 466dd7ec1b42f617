//! Finished slices as a job or a verification reads them: DTW tables held decoded in memory or
//! read from their mapped files, and the turn of a position into its slice and place there.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use rayon::prelude::*;

use crate::rules::board::{KingRun, Position};
use crate::rules::movegen;
use crate::rules::moves::MoveList;
use crate::rules::piece::Color;
use crate::rules::variant::{Variant, with_rules};
use crate::tablebase::blocks::BlockCache;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, Header, TableKind, TableView};
use crate::tablebase::fs;
use crate::tablebase::index::{Indexer, Placement};
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::memory::Bytes;
use crate::tablebase::value::Dtw;

/// The placement of a position, turned round when Black is to move, and its material.
pub(crate) fn normalize(pos: &Position) -> (Material, Placement) {
    let g = pos.variant.geometry();
    let p = match pos.side {
        Color::White => Placement {
            us: pos.white,
            them: pos.black,
            kings: pos.kings,
        },
        Color::Black => Placement {
            us: g.flip(pos.black),
            them: g.flip(pos.white),
            kings: g.flip(pos.kings),
        },
    };
    (material_of(p), p)
}

pub(crate) fn material_of(p: Placement) -> Material {
    Material::new(
        (p.us & !p.kings).count_ones() as u8,
        (p.us & p.kings).count_ones() as u8,
        (p.them & !p.kings).count_ones() as u8,
        (p.them & p.kings).count_ones() as u8,
    )
}

/// The position of a slice placement (its side to move plays as White).
pub(crate) fn position_of(variant: Variant, p: Placement) -> Position {
    Position {
        white: p.us,
        black: p.them,
        kings: p.kings,
        side: Color::White,
        variant,
        king_run: [KingRun::default(); 2],
    }
}

/// How a held slice's DTW codes are read.
enum Codes {
    /// Decoded in memory, two bytes a position.
    Decoded(Vec<u16>),
    /// From the mapped file, block by block through the store's cache (every block was
    /// decompressed once when the slice was taken, so none fails later).
    Mapped { map: Mmap, id: u64 },
    /// WDL entries decoded in memory, four to a byte (a quarter of a byte a position); their
    /// capture positions are resolved by playing the captures, into slices also held.
    Wdl(Vec<u8>),
}

/// A finished slice held for lookups: its index, its DTW file's header and codes.
struct Held {
    ix: Indexer,
    header: Header,
    codes: Codes,
}

/// Bytes a position of a slice held decoded takes.
const DECODED_BYTES: u64 = 2;

/// Finished slices held for looking up the moves that leave a job (or, in a verification, every
/// move): decoded in memory, or read from their mapped files when the memory allowed is less
/// than decoding them all would take.
pub(crate) struct Store {
    variant: Variant,
    dir: PathBuf,
    slices: HashMap<Material, Held>,
    cache: BlockCache,
}

/// What a store holds of its slices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Holding {
    /// Slices decoded in memory.
    pub decoded: usize,
    /// Slices read from their files.
    pub mapped: usize,
    /// The bytes of the decoded codes and of the cache of blocks.
    pub bytes: u64,
}

impl Store {
    pub(crate) fn new(variant: Variant, dir: &Path) -> Store {
        Store {
            variant,
            dir: dir.to_path_buf(),
            slices: HashMap::new(),
            cache: BlockCache::new(1),
        }
    }

    /// Loads `materials` decoded (dropping any other slice held) and checks each file fully.
    pub(crate) fn hold(&mut self, materials: &[Material]) -> Result<(), TbError> {
        self.hold_within(materials, Bytes(u64::MAX)).map(|_| ())
    }

    /// Holds `materials` in at most `budget` bytes: decoded, in the order given, while they fit,
    /// the rest read from their mapped files through a cache of blocks of at most an eighth of
    /// the budget (up to 1 GiB). Every file is checked fully. Other slices held are dropped.
    pub(crate) fn hold_within(
        &mut self,
        materials: &[Material],
        budget: Bytes,
    ) -> Result<Holding, TbError> {
        self.slices.retain(|m, _| materials.contains(m));
        let g = self.variant.geometry();
        let size = |m: Material| Indexer::new(g, m).size() * DECODED_BYTES;
        let all: u64 = materials.iter().map(|&m| size(m)).sum();
        let cache_bytes = if all <= budget.0 {
            0
        } else {
            (budget.0 / 8).min(1 << 30)
        };
        let raw_block = TableKind::Dtw.block_positions() as u64 * DECODED_BYTES;
        self.cache = BlockCache::new((cache_bytes / raw_block).max(1) as usize);
        let mut holding = Holding {
            bytes: cache_bytes,
            ..Holding::default()
        };
        for (id, &m) in materials.iter().enumerate() {
            let decode = holding.bytes + size(m) <= budget.0;
            let keep = match self.slices.get(&m).map(|h| &h.codes) {
                Some(Codes::Decoded(_)) => decode,
                Some(Codes::Mapped { .. }) => !decode,
                Some(Codes::Wdl(_)) | None => false,
            };
            if keep {
                if let Some(Held {
                    codes: Codes::Mapped { id: old, .. },
                    ..
                }) = self.slices.get_mut(&m)
                {
                    *old = id as u64;
                }
            } else if decode {
                let (header, codes) = load_codes(self.variant, &self.dir, m, TableKind::Dtw)?;
                let ix = Indexer::new(g, m);
                let codes = Codes::Decoded(codes);
                self.slices.insert(m, Held { ix, header, codes });
            } else {
                let (map, header) = map_checked(self.variant, &self.dir, m, TableKind::Dtw)?;
                let ix = Indexer::new(g, m);
                let codes = Codes::Mapped { map, id: id as u64 };
                self.slices.insert(m, Held { ix, header, codes });
            }
            if decode {
                holding.decoded += 1;
                holding.bytes += size(m);
            } else {
                holding.mapped += 1;
            }
        }
        Ok(holding)
    }

    /// Holds `materials` as WDL, four positions a byte (dropping any other slice held), for a
    /// job or a check of WDL alone; `materials` must hold every slice the captures of a held
    /// position lead to. Every file is checked fully.
    pub(crate) fn hold_wdl(&mut self, materials: &[Material]) -> Result<(), TbError> {
        self.slices
            .retain(|m, h| materials.contains(m) && matches!(h.codes, Codes::Wdl(_)));
        for &m in materials {
            if self.slices.contains_key(&m) {
                continue;
            }
            let (map, header) = map_table(self.variant, &self.dir, m, TableKind::Wdl)?;
            let bits = TableView::checked(&map, header.clone())
                .decode_packed()
                .map_err(corrupt(&self.dir, m, TableKind::Wdl))?;
            let ix = Indexer::new(self.variant.geometry(), m);
            let codes = Codes::Wdl(bits);
            self.slices.insert(m, Held { ix, header, codes });
        }
        Ok(())
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// The directory the slices are read from.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The value of a position computed from the held values of its moves; `list` is left
    /// holding the moves.
    pub(crate) fn derive(&self, pos: &Position, list: &mut MoveList) -> Dtw {
        with_rules!(self.variant, R => movegen::generate::<R>(pos, list));
        let mut best = Dtw::Loss(0);
        for (i, mv) in list.iter().enumerate() {
            let v = self.value(&pos.play(mv)).before();
            if i == 0 || v.preference() > best.preference() {
                best = v;
            }
        }
        best
    }

    /// The value of a position reached by a move (the opponent to move), from its side to move.
    #[inline]
    pub(crate) fn value(&self, pos: &Position) -> Dtw {
        let (m, p) = normalize(pos);
        if m.side(0) == 0 {
            return Dtw::Loss(0);
        }
        let slice = self
            .slices
            .get(&m)
            .expect("every slice a job's moves reach is held before the job runs");
        let rank = slice.ix.rank(p);
        Dtw::from_code(match &slice.codes {
            Codes::Decoded(codes) => codes[rank as usize],
            Codes::Mapped { map, id } => {
                let h = &slice.header;
                let bp = h.block_positions as u64;
                let block_no = rank / bp;
                let block = self.cache.get((id << 40) | block_no, || {
                    Ok(TableView::checked(map, h.clone())
                        .decompress(block_no as usize)
                        .expect("every block was decompressed when the slice was taken"))
                });
                let block = block.expect("the loader above does not fail");
                format::entry(&block, h.entry_bits, (rank % bp) as usize)
            }
            Codes::Wdl(bits) => {
                if pos.has_capture() {
                    // A WDL table does not store a position that must capture: its value is
                    // the best of its captures'.
                    return self.derive(pos, &mut MoveList::new());
                }
                // The distances are unknown: a win is taken as one ply from the end and a loss
                // as the end, which orders the results as the distances would.
                match format::entry(bits, 2, rank as usize) as u8 {
                    c if c == format::WDL_WIN => return Dtw::Win(1),
                    c if c == format::WDL_LOSS => return Dtw::Loss(0),
                    _ => 0,
                }
            }
        })
    }
}

/// The error for a table of `m` whose contents are damaged, with the reason.
fn corrupt(dir: &Path, m: Material, kind: TableKind) -> impl Fn(String) -> TbError {
    let path = table_path(dir, m, kind);
    move |reason| TbError::Corrupt {
        path: path.clone(),
        reason,
    }
}

/// Maps a table of one slice after checking header, size and checksum, and that every block
/// decompresses to its length.
pub(crate) fn map_checked(
    variant: Variant,
    dir: &Path,
    m: Material,
    kind: TableKind,
) -> Result<(Mmap, Header), TbError> {
    let (map, header) = map_table(variant, dir, m, kind)?;
    let view = TableView::checked(&map, header.clone());
    (0..header.block_count as usize)
        .into_par_iter()
        .try_for_each(|i| view.decompress(i).map(|_| ()))
        .map_err(corrupt(dir, m, kind))?;
    Ok((map, header))
}

/// Maps a table of one slice after checking its header, size and checksum.
pub(crate) fn map_table(
    variant: Variant,
    dir: &Path,
    m: Material,
    kind: TableKind,
) -> Result<(Mmap, Header), TbError> {
    let path = table_path(dir, m, kind);
    if !path.exists() {
        return Err(TbError::Missing {
            dir: dir.to_path_buf(),
            material: m,
            kind: kind.extension(),
        });
    }
    let map = fs::map(&path)?;
    let corrupt = corrupt(dir, m, kind);
    let view = TableView::new(&map).map_err(&corrupt)?;
    check_identity(&view.header, variant, m, kind).map_err(&corrupt)?;
    let header = view.header.clone();
    Ok((map, header))
}

/// Reads a whole table of one slice after checking header, size and checksum.
pub(crate) fn load_codes(
    variant: Variant,
    dir: &Path,
    m: Material,
    kind: TableKind,
) -> Result<(Header, Vec<u16>), TbError> {
    let (map, header) = map_table(variant, dir, m, kind)?;
    let codes = TableView::checked(&map, header.clone())
        .decode_all()
        .map_err(corrupt(dir, m, kind))?;
    Ok((header, codes))
}

/// Checks that a header belongs to the file it was read from.
pub(crate) fn check_identity(
    h: &Header,
    variant: Variant,
    m: Material,
    kind: TableKind,
) -> Result<(), String> {
    if h.variant != variant {
        return Err(format!(
            "table for {}, expected {}",
            h.variant.name(),
            variant.name()
        ));
    }
    if h.material != m || h.kind != kind {
        return Err(format!(
            "holds the {} table of {}, not the {} table of {m}",
            h.kind.extension(),
            h.material,
            kind.extension()
        ));
    }
    let size = Indexer::new(variant.geometry(), m).size();
    if h.positions != size {
        return Err(format!("{} positions, the slice has {size}", h.positions));
    }
    Ok(())
}
