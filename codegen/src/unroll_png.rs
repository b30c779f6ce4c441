//! `kaiseki unroll --grid K --png OUT.png`: the P(k) grid of every nest
//! drawn as a heat map, like the paper's figs. 11 and 13, one panel per
//! nest, stacked top to bottom.
//!
//! A panel has one cell per k: rows are the outermost loop's factor (1 at
//! the top), columns the next loop's (a one-loop nest has one row). A
//! deeper nest is drawn in the plane of its first two loops through the
//! chosen vector (the other loops at their chosen factors), with the
//! search path projected on that plane. Colour is P(k), from dark blue
//! (the panel's lowest) through green to yellow (its highest); saturated
//! cells are hatched; the search path is a white line through white dots
//! at the centre of its cells, from (1,1) to the chosen vector, whose
//! cell is framed in red. Axis labels are the factors, drawn in a small
//! built-in digit font.

use crate::unroll::GridCell;

/// Pixels of one cell, of the margins for the labels and between panels.
pub const CELL: usize = 24;
pub const LEFT: usize = 24;
pub const TOP: usize = 16;
pub const GAP: usize = 8;

/// One nest to draw: its cells (every k up to the grid size), the search
/// path (the vectors it passed, outermost loop first) and the chosen vector.
pub struct Panel<'a> {
    pub cells: Vec<&'a GridCell>,
    pub path: Vec<Vec<i64>>,
    pub chosen: Vec<i64>,
}

/// The width and height of the image of panels of nests of `depths` at
/// grid size `size`.
pub fn image_size(depths: &[usize], size: usize) -> (usize, usize) {
    let width = LEFT + size * CELL + GAP;
    let height = depths
        .iter()
        .map(|&d| TOP + rows(d, size) * CELL + GAP)
        .sum::<usize>()
        .max(1);
    (width, height)
}

fn rows(depth: usize, size: usize) -> usize {
    if depth >= 2 {
        size
    } else {
        1
    }
}

/// The (row, column) of a vector in its panel (factors from 1).
fn place(k: &[i64]) -> (usize, usize) {
    let at = |i: usize| k.get(i).map_or(0, |&x| (x - 1).max(0) as usize);
    if k.len() >= 2 {
        (at(0), at(1))
    } else {
        (0, at(0))
    }
}

/// RGB pixels, row by row.
struct Canvas {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Canvas {
    fn set(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 3;
            self.rgb[i..i + 3].copy_from_slice(&c);
        }
    }

    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    fn frame(&mut self, x: usize, y: usize, w: usize, h: usize, c: [u8; 3]) {
        for t in 0..2 {
            self.rect(x + t, y, 1, h, c);
            self.rect(x + w - 1 - t, y, 1, h, c);
            self.rect(x, y + t, w, 1, c);
            self.rect(x, y + h - 1 - t, w, 1, c);
        }
    }

    /// A straight line of width 2 from (x0, y0) to (x1, y1).
    fn line(&mut self, (x0, y0): (usize, usize), (x1, y1): (usize, usize), c: [u8; 3]) {
        let steps = x0.abs_diff(x1).max(y0.abs_diff(y1)).max(1);
        for s in 0..=steps {
            let t = s as f64 / steps as f64;
            let x = (x0 as f64 + (x1 as f64 - x0 as f64) * t).round() as usize;
            let y = (y0 as f64 + (y1 as f64 - y0 as f64) * t).round() as usize;
            self.rect(x, y, 2, 2, c);
        }
    }

    /// A number in the 3x5 digit font, each dot 2x2 pixels.
    fn number(&mut self, x: usize, y: usize, n: i64, c: [u8; 3]) {
        for (i, d) in n.to_string().bytes().enumerate() {
            let glyph = DIGITS[(d - b'0') as usize];
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..3 {
                    if bits & (4 >> col) != 0 {
                        self.rect(x + i * 8 + col * 2, y + row * 2, 2, 2, c);
                    }
                }
            }
        }
    }
}

/// Digits 0-9, five rows of three bits (the high bit on the left).
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

const WHITE: [u8; 3] = [255, 255, 255];
const RED: [u8; 3] = [220, 30, 30];
const INK: [u8; 3] = [40, 40, 40];

/// The colour of a share t in [0, 1] of the panel's range of P.
pub fn colour(t: f64) -> [u8; 3] {
    const STOPS: [[f64; 3]; 4] = [
        [40.0, 30.0, 110.0],
        [30.0, 110.0, 150.0],
        [60.0, 170.0, 90.0],
        [245.0, 225.0, 40.0],
    ];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    std::array::from_fn(|c| (STOPS[i][c] + (STOPS[i + 1][c] - STOPS[i][c]) * f).round() as u8)
}

/// The top-left pixel of the cell at (row, column) of a panel at `y0`.
pub fn cell_origin(y0: usize, (row, col): (usize, usize)) -> (usize, usize) {
    (LEFT + col * CELL, y0 + TOP + row * CELL)
}

/// Where the panels start, top to bottom.
pub fn panel_tops(depths: &[usize], size: usize) -> Vec<usize> {
    let mut y = 0;
    depths
        .iter()
        .map(|&d| {
            let top = y;
            y += TOP + rows(d, size) * CELL + GAP;
            top
        })
        .collect()
}

/// The PNG of `panels` at grid size `size`.
pub fn draw(panels: &[Panel], size: usize) -> Result<Vec<u8>, String> {
    let depths: Vec<usize> = panels.iter().map(|p| p.chosen.len()).collect();
    let (width, height) = image_size(&depths, size);
    let mut canvas = Canvas {
        width,
        height,
        rgb: vec![255; width * height * 3],
    };
    for (p, y0) in panels.iter().zip(panel_tops(&depths, size)) {
        draw_panel(&mut canvas, p, y0, size);
    }
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width as u32, height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&canvas.rgb)
            .map_err(|e| e.to_string())?;
    }
    Ok(bytes)
}

fn draw_panel(canvas: &mut Canvas, p: &Panel, y0: usize, size: usize) {
    let depth = p.chosen.len();
    // The plane of the first two loops through the chosen vector.
    let in_plane = |k: &[i64]| depth < 3 || k[2..] == p.chosen[2..];
    let cells: Vec<&&GridCell> = p.cells.iter().filter(|c| in_plane(&c.k)).collect();
    let (lo, hi) = cells.iter().fold((f64::MAX, f64::MIN), |(lo, hi), c| {
        (lo.min(c.perf), hi.max(c.perf))
    });
    for c in &cells {
        let t = if hi > lo {
            (c.perf - lo) / (hi - lo)
        } else {
            1.0
        };
        let (x, y) = cell_origin(y0, place(&c.k));
        canvas.rect(x, y, CELL, CELL, colour(t));
        if c.saturated {
            // Hatching: every sixth diagonal of the cell, darkened.
            for dy in 0..CELL {
                for dx in 0..CELL {
                    if (dx + dy) % 6 == 0 {
                        let base = colour(t);
                        canvas.set(x + dx, y + dy, base.map(|v| v / 2));
                    }
                }
            }
        }
    }
    let labels = rows(depth, size);
    for i in 0..size {
        let (x, _) = cell_origin(y0, (0, i));
        canvas.number(x + CELL / 2 - 3, y0 + 2, i as i64 + 1, INK);
    }
    for i in 0..labels {
        let (_, y) = cell_origin(y0, (i, 0));
        canvas.number(2, y + CELL / 2 - 5, i as i64 + 1, INK);
    }
    let centre = |k: &[i64]| {
        let (x, y) = cell_origin(y0, place(k));
        (x + CELL / 2 - 1, y + CELL / 2 - 1)
    };
    // What lies past the grid (factors above K) is not drawn.
    let inside = |k: &[i64]| {
        let (row, col) = place(k);
        row < labels && col < size
    };
    for w in p.path.windows(2).filter(|w| inside(&w[0]) && inside(&w[1])) {
        canvas.line(centre(&w[0]), centre(&w[1]), WHITE);
    }
    for k in p.path.iter().filter(|k| inside(k)) {
        let (x, y) = centre(k);
        canvas.rect(x - 2, y - 2, 6, 6, WHITE);
    }
    if inside(&p.chosen) {
        let (x, y) = cell_origin(y0, place(&p.chosen));
        canvas.frame(x, y, CELL, CELL, RED);
    }
}
