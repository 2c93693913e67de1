//! The grid's geometry over a sweep of sizes: cells never below the readable size, never
//! overlapping, inside the body, one per agent; no grid when none fits; the shapes chosen
//! for the usual wide terminals; 1–4 agents side by side as before.

use ratatui::layout::{Constraint, Layout, Rect};

use super::*;

/// Every body the sweep tries, offset as a real body is (below the header).
fn bodies() -> impl Iterator<Item = Rect> {
    (80..=300u16).step_by(7).flat_map(|width| {
        (20..=80u16)
            .step_by(3)
            .map(move |height| Rect::new(3, 1, width, height))
    })
}

/// Whether some rows × columns grid of cells at least the readable size holds `count`
/// cards in `area` (worked out independently of `shape`).
fn some_grid_fits(count: u16, area: Rect) -> bool {
    (1..=count).any(|columns| {
        (1..=count).any(|rows| {
            rows * columns >= count
                && area.width / columns >= READABLE_WIDTH
                && area.height / rows >= READABLE_HEIGHT
        })
    })
}

#[test]
fn grid_cells_are_readable_disjoint_inside_and_one_per_agent() {
    let mut grids = 0;
    for count in 5..=12usize {
        for area in bodies() {
            let Some(cells) = arrange(count, area) else {
                assert!(
                    !some_grid_fits(count as u16, area),
                    "{count} agents fit a grid in {area:?}, yet no grid"
                );
                continue;
            };
            grids += 1;
            assert_eq!(cells.len(), count, "one cell per agent in {area:?}");
            for (index, cell) in cells.iter().enumerate() {
                assert!(
                    cell.width >= READABLE_WIDTH && cell.height >= READABLE_HEIGHT,
                    "{count} agents in {area:?}: cell {index} is {cell:?}"
                );
                assert_eq!(area.union(*cell), area, "cell {index} leaves {area:?}");
                for other in &cells[index + 1..] {
                    assert!(
                        !cell.intersects(*other),
                        "{count} agents in {area:?}: {cell:?} overlaps {other:?}"
                    );
                }
            }
            // The cells tile the body: no row or column is left empty.
            let covered: u32 = cells.iter().map(|cell| cell.area()).sum();
            assert_eq!(covered, area.area(), "{count} in {area:?}");
        }
    }
    assert!(grids > 1000, "the sweep drew grids ({grids})");
}

#[test]
fn below_the_readable_size_there_is_no_grid() {
    for count in 5..=12usize {
        // Too narrow for even one column… and too short for even one row of them all.
        assert_eq!(
            arrange(count, Rect::new(0, 0, READABLE_WIDTH - 1, 200)),
            None
        );
        assert_eq!(
            arrange(count, Rect::new(0, 0, 300, READABLE_HEIGHT - 1)),
            None
        );
    }
    // 80×24's body (12 rows): two rows of 6 are not readable.
    assert_eq!(arrange(5, Rect::new(0, 1, 80, 12)), None);
    // Six at 120×20: three columns of 40 need two rows of 8 (16): they fit; 15 rows do not.
    assert!(arrange(6, Rect::new(0, 0, 120, 16)).is_some());
    assert_eq!(arrange(6, Rect::new(0, 0, 119, 16)), None);
    assert_eq!(arrange(6, Rect::new(0, 0, 120, 15)), None);
}

#[test]
fn wide_terminals_get_balanced_grids() {
    // 200×50's and 160×48's bodies beside the timeline: 34 and 32 rows.
    let wide = Rect::new(0, 1, 200, 34);
    let big = Rect::new(0, 1, 160, 32);
    let grid = |rows, columns| Some(Shape { rows, columns });
    assert_eq!(shape(5, wide), grid(2, 3));
    assert_eq!(shape(6, wide), grid(2, 3));
    // 66×11 cells are a bigger multiple of 40×8 than 50×17 ones.
    assert_eq!(shape(7, wide), grid(3, 3));
    assert_eq!(shape(8, wide), grid(3, 3));
    assert_eq!(shape(9, wide), grid(3, 3));
    assert_eq!(shape(12, wide), grid(3, 4));
    assert_eq!(shape(6, big), grid(2, 3));
    assert_eq!(shape(9, big), grid(3, 3));
    // 53×8 and 40×10 are as readable: the bigger cell wins.
    assert_eq!(shape(12, big), grid(4, 3));
    // Tall and narrow: one column of stacked cards.
    assert_eq!(shape(5, Rect::new(0, 0, 60, 45)), grid(5, 1));
}

#[test]
fn a_short_last_row_shares_its_width() {
    let area = Rect::new(0, 1, 200, 34);
    let cells = arrange(5, area).unwrap();
    assert_eq!(cells[..3].iter().map(|cell| cell.y).max(), Some(1));
    let last: Vec<Rect> = cells[3..].to_vec();
    assert!(last.iter().all(|cell| cell.y > 1), "{cells:?}");
    assert_eq!(last.iter().map(|cell| cell.width).sum::<u16>(), 200);
    assert_eq!(last[0].x, 0);
}

#[test]
fn up_to_four_agents_sit_side_by_side_as_before() {
    for count in 1..=4usize {
        for area in bodies().chain([Rect::new(0, 1, 160, 5)]) {
            let before = (area.width / count as u16 >= READABLE_WIDTH).then(|| {
                Layout::horizontal(vec![Constraint::Fill(1); count])
                    .split(area)
                    .to_vec()
            });
            match (before, arrange(count, area)) {
                (Some(before), now) => assert_eq!(now, Some(before), "{count} in {area:?}"),
                // Too narrow side by side: a grid if one fits readably, else tabs.
                (None, Some(cells)) => assert!(
                    cells
                        .iter()
                        .all(|cell| cell.width >= READABLE_WIDTH && cell.height >= READABLE_HEIGHT),
                    "{count} in {area:?}: {cells:?}"
                ),
                (None, None) => assert!(!some_grid_fits(count as u16, area)),
            }
        }
    }
    assert_eq!(arrange(0, Rect::new(0, 0, 10, 3)), Some(Vec::new()));
}

#[test]
fn the_hint_says_what_g_would_show() {
    let wide = Some(Rect::new(0, 1, 200, 34));
    let small = Some(Rect::new(0, 1, 80, 12));
    assert_eq!(hint(6, false, false, wide), Some("g: one card · "));
    assert_eq!(hint(6, true, false, wide), Some("g: all cards · "));
    assert_eq!(hint(3, true, false, wide), Some("g: all cards · "));
    assert_eq!(
        hint(3, false, false, wide),
        None,
        "side by side says nothing new"
    );
    assert_eq!(hint(6, false, false, small), None, "too small for a grid");
    assert_eq!(hint(6, true, false, small), None);
    assert_eq!(hint(6, false, true, wide), None, "zoomed");
    assert_eq!(hint(6, false, false, None), None, "no cards on screen");
    assert_eq!(hint(1, true, false, wide), None);
}
