//! Finished slices as a job or a verification reads them: whole DTW tables held in memory, and
//! the turn of a position into its slice and place there.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::rules::board::{KingRun, Position};
use crate::rules::movegen;
use crate::rules::moves::MoveList;
use crate::rules::piece::Color;
use crate::rules::variant::{Variant, with_rules};
use crate::tablebase::error::TbError;
use crate::tablebase::format::{Header, TableKind, TableView};
use crate::tablebase::fs;
use crate::tablebase::index::{Indexer, Placement};
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
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

/// A finished slice held in memory: its index, its DTW file's header and codes.
struct Held {
    ix: Indexer,
    header: Header,
    codes: Vec<u16>,
}

/// Finished slices held in memory as DTW codes, for looking up the moves that leave a job.
pub(crate) struct Store {
    variant: Variant,
    dir: PathBuf,
    slices: HashMap<Material, Held>,
}

impl Store {
    pub(crate) fn new(variant: Variant, dir: &Path) -> Store {
        Store {
            variant,
            dir: dir.to_path_buf(),
            slices: HashMap::new(),
        }
    }

    /// Loads `materials` (dropping any other slice held) and checks each file fully.
    pub(crate) fn hold(&mut self, materials: &[Material]) -> Result<(), TbError> {
        self.slices.retain(|m, _| materials.contains(m));
        for &m in materials {
            if self.slices.contains_key(&m) {
                continue;
            }
            let (header, codes) = load_codes(self.variant, &self.dir, m, TableKind::Dtw)?;
            let ix = Indexer::new(self.variant.geometry(), m);
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

    /// A held slice: its index, DTW header and DTW codes.
    pub(crate) fn slice(&self, m: Material) -> (&Indexer, &Header, &[u16]) {
        let s = self.slices.get(&m).expect("the slice is held");
        (&s.ix, &s.header, &s.codes)
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
        Dtw::from_code(slice.codes[slice.ix.rank(p) as usize])
    }
}

/// Reads a whole table of one slice after checking header, size and checksum.
pub(crate) fn load_codes(
    variant: Variant,
    dir: &Path,
    m: Material,
    kind: TableKind,
) -> Result<(Header, Vec<u16>), TbError> {
    let path = table_path(dir, m, kind);
    if !path.exists() {
        return Err(TbError::Missing {
            dir: dir.to_path_buf(),
            material: m,
            kind: kind.extension(),
        });
    }
    let map = fs::map(&path)?;
    let corrupt = |reason: String| TbError::Corrupt {
        path: path.clone(),
        reason,
    };
    let view = TableView::new(&map).map_err(corrupt)?;
    check_identity(&view.header, variant, m, kind).map_err(corrupt)?;
    let codes = view.decode_all().map_err(corrupt)?;
    Ok((view.header, codes))
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
