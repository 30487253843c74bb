//! Property tests (proptest, with shrinking): random valid levels written in every format
//! read back as the same level, alone and in collections; positions written as XSB read
//! back as that position.

use proptest::prelude::*;
use sokoban_core::format::{self, Input};
use sokoban_core::{Dir, Grid, Level, Tile};

/// A random level: a board of up to 12 x 9 squares inside walls (some squares walls, some
/// left out as holes of outside space), the player, 1-5 boxes and as many goals, placed on
/// squares the player can reach, so the level is always valid.
fn level() -> impl Strategy<Value = Level> {
    (2usize..=12, 2usize..=9)
        .prop_flat_map(|(w, h)| {
            (
                Just(w),
                Just(h),
                prop::collection::vec(prop_oneof![6 => Just(' '), 2 => Just('#')], w * h),
                prop::collection::vec(any::<prop::sample::Index>(), 12),
                1usize..=5,
                any::<Option<String>>().prop_map(|t| {
                    t.map(|t| {
                        t.chars()
                            .filter(|c| c.is_alphanumeric() || *c == ' ')
                            .take(20)
                            .collect::<String>()
                    })
                }),
            )
        })
        .prop_filter_map(
            "room for the player and the boxes",
            |(w, h, cells, picks, boxes, title)| build(w, h, &cells, &picks, boxes, title),
        )
}

fn build(
    w: usize,
    h: usize,
    cells: &[char],
    picks: &[prop::sample::Index],
    boxes: usize,
    title: Option<String>,
) -> Option<Level> {
    let mut rows = vec![vec!['#'; w + 2]; h + 2];
    for r in 0..h {
        for c in 0..w {
            rows[r + 1][c + 1] = cells[r * w + c];
        }
    }
    let floor: Vec<(usize, usize)> = (0..h + 2)
        .flat_map(|r| (0..w + 2).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r][c] == ' ')
        .collect();
    if floor.is_empty() {
        return None;
    }
    // The player, then the squares it reaches.
    let (pr, pc) = floor[picks[0].index(floor.len())];
    let mut seen = vec![vec![false; w + 2]; h + 2];
    let mut stack = vec![(pr, pc)];
    seen[pr][pc] = true;
    let mut reach = Vec::new();
    while let Some((r, c)) = stack.pop() {
        reach.push((r, c));
        for (dr, dc) in [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)] {
            let (nr, nc) = ((r as isize + dr) as usize, (c as isize + dc) as usize);
            if rows[nr][nc] == ' ' && !seen[nr][nc] {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    reach.sort();
    let others: Vec<(usize, usize)> = reach.iter().copied().filter(|&s| s != (pr, pc)).collect();
    if others.len() < boxes {
        return None;
    }
    let mut free = others.clone();
    let mut box_at = Vec::new();
    for p in picks.iter().skip(1).take(boxes) {
        box_at.push(free.swap_remove(p.index(free.len())));
    }
    if box_at.len() < boxes {
        return None;
    }
    let mut goal_at: Vec<(usize, usize)> = Vec::new();
    let mut all = reach.clone();
    for p in picks.iter().skip(6).take(boxes) {
        goal_at.push(all.swap_remove(p.index(all.len())));
    }
    if goal_at.len() < boxes {
        return None;
    }
    rows[pr][pc] = '@';
    for &(r, c) in &box_at {
        rows[r][c] = '$';
    }
    for &(r, c) in &goal_at {
        rows[r][c] = match rows[r][c] {
            '$' => '*',
            '@' => '+',
            _ => '.',
        };
    }
    let tiles: Vec<Vec<Tile>> =
        rows.iter().map(|row| row.iter().map(|&c| Tile::from_xsb(c).unwrap()).collect()).collect();
    let n = tiles.len();
    let mut level = Grid { rows: tiles, title: None, lines: vec![None; n] }.validate().ok()?;
    level.title = title.filter(|t| !t.trim().is_empty()).map(|t| t.trim().to_string());
    Some(level)
}

fn same(level: &Level, what: &str, text: &str) -> Result<(), TestCaseError> {
    let back = format::parse_level(text)
        .map_err(|e| TestCaseError::fail(format!("{what} does not read back: {e}\n{text}")))?;
    prop_assert_eq!(&back.board, &level.board, "{} changed the board:\n{}", what, text);
    prop_assert_eq!(&back.start, &level.start, "{} changed the start:\n{}", what, text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_format_reads_back_as_the_same_level(level in level()) {
        same(&level, "XSB", &format::to_xsb(&level))?;
        same(&level, "run-length", &format::to_rle(&level))?;
        same(&level, "MF8", &format::to_mf8(&level))?;
        same(&level, "SokoPlayer link", &format::to_sokoplayer_url(&level, "http://sokoban.ws/sokoplayer/"))?;
        same(&level, "[soko] wrapper", &format::to_soko_wrapper(&level))?;
        same(&level, "SokobanScript link", &format::to_sokobanscript_level_url(&level, "https://x.org/"))?;
        same(&level, "base64 link", &format::to_sokobanscript_base64_url(&level, "https://x.org/"))?;
        same(&level, "collection", &format::to_collection(std::slice::from_ref(&level)))?;
    }

    #[test]
    fn collections_keep_every_level_and_title(levels in prop::collection::vec(level(), 1..5)) {
        let text = format::to_collection(&levels);
        let Ok(Input::Levels(c)) = format::parse_input(&text) else {
            return Err(TestCaseError::fail(format!("not read as levels:\n{text}")));
        };
        prop_assert_eq!(c.entries.len(), levels.len(), "{}", text);
        for (e, l) in c.entries.iter().zip(&levels) {
            let back = e.level().map_err(|e| TestCaseError::fail(e.message))?;
            prop_assert_eq!(&back.board, &l.board, "{}", text);
            prop_assert_eq!(&back.start, &l.start, "{}", text);
            if l.title.is_some() {
                prop_assert_eq!(&e.title, &l.title, "{}", text);
            }
        }
    }

    /// A position reached by random steps, written as XSB, reads back as a level whose
    /// start is that position.
    #[test]
    fn positions_read_back(level in level(), steps in prop::collection::vec(0usize..4, 0..40)) {
        let mut pos = level.start.clone();
        for d in steps {
            pos.apply(&level.board, Dir::from_index(d));
        }
        let text = format::position_to_xsb(&level, &pos);
        let back = format::parse_level(&text).map_err(|e| TestCaseError::fail(e.message))?;
        prop_assert_eq!(&back.start, &pos, "{}", text);
        let rle = format::position_to_rle(&level, &pos);
        let back = format::parse_level(&rle).map_err(|e| TestCaseError::fail(e.message))?;
        prop_assert_eq!(&back.start, &pos, "{}", rle);
    }
}
