//! The picture of a table (`table-lint data --picture FILE`): its partitions and the writes to
//! its hottest ones, readable without the text report.
//!
//! From top to bottom the picture holds
//! 1. a title: the table, what was read (a sample or the full table), entities and partitions;
//! 2. the partition map: a squarified treemap with one cell per large partition, the cell's
//!    area its share of the entities read and its colour its entity count (log scale); the
//!    partitions not passed in one by one share a grey cell. Beside it, the colour scale and
//!    the largest partitions by name;
//! 3. the heat strips: for each of the hottest partitions, writes per second over time against
//!    the per-partition target, the seconds over the target in red.
//!
//! The picture is drawn once, through plotters, on either of two backends: plotters' SVG
//! backend (text stays text, escaped by the backend) or its bitmap backend into a pixel buffer,
//! which the `png` crate encodes. Text is measured (and, in the bitmap, drawn) with ab_glyph
//! from DejaVu Sans, compiled in from the `dejavu` crate: no system font library is involved.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontDesc, FontFamily, FontStyle, RGBAColor};

/// What the picture shows, gathered by the analysis.
#[derive(Debug, Clone, Default)]
pub struct PictureData {
    /// The table's name, shown in the title.
    pub table: String,
    /// "full table" or "sample of N entities" etc: shown in the title.
    pub scope: String,
    /// The entities read.
    pub entities: u64,
    /// The partitions seen (all of them, not only those in `largest`).
    pub partitions: u64,
    /// The largest partitions, (PartitionKey, entity count), largest first (at most a few hundred).
    pub largest: Vec<(String, u64)>,
    /// The partitions not in `largest`, and their entities.
    pub others: (u64, u64),
    /// The hottest partitions' writes over time, hottest first.
    pub heat: Vec<HeatStrip>,
    /// The per-partition target drawn as a line (2000).
    pub target_per_second: u64,
}

/// The writes over time to one partition.
#[derive(Debug, Clone, Default)]
pub struct HeatStrip {
    /// The partition's PartitionKey.
    pub partition: String,
    /// Writes per second, (unix seconds, writes) sorted by time; only seconds with writes; may be sparse and up to a few thousand points.
    pub per_second: Vec<(i64, u64)>,
    /// The most writes in one second.
    pub peak_per_second: u64,
}

/// Writes the picture: SVG when the path ends in `.svg`, PNG when it ends in `.png` (case-insensitive); any other extension is an error naming the two allowed ones.
pub fn write(data: &PictureData, path: &Path) -> Result<(), String> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let bytes = match extension.as_deref() {
        Some("svg") => svg(data)?.into_bytes(),
        Some("png") => png(data)?,
        _ => {
            return Err(format!(
                "cannot tell the picture's format from `{}`: its name must end in `.svg` or `.png`",
                path.display()
            ));
        }
    };
    std::fs::write(path, bytes)
        .map_err(|e| format!("cannot write the picture to `{}`: {e}", path.display()))
}

/// The SVG text (used by `write` and by tests).
pub fn svg(data: &PictureData) -> Result<String, String> {
    register_font()?;
    let layout = Layout::of(data);
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, layout.height)).into_drawing_area();
        draw(&root, data, &layout)?;
        root.present().map_err(drawing_error)?;
    }
    Ok(text)
}

/// The PNG file's bytes: the picture drawn into an RGB buffer, then encoded.
fn png(data: &PictureData) -> Result<Vec<u8>, String> {
    register_font()?;
    let layout = Layout::of(data);
    let mut pixels = vec![0u8; WIDTH as usize * layout.height as usize * 3];
    {
        let root =
            BitMapBackend::with_buffer(&mut pixels, (WIDTH, layout.height)).into_drawing_area();
        draw(&root, data, &layout)?;
        root.present().map_err(drawing_error)?;
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, WIDTH, layout.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("cannot encode the picture as PNG: {e}"))?;
    writer
        .write_image_data(&pixels)
        .and_then(|()| writer.finish())
        .map_err(|e| format!("cannot encode the picture as PNG: {e}"))?;
    Ok(bytes)
}

// ---------------------------------------------------------------------------------------------
// Sizes, colours, the font.

/// The service's scalability target for a single partition: 2,000 entities per second (of 1 KiB
/// each), from Microsoft's "Scalability and performance targets for Table storage". Drawn when
/// the data carries no target of its own.
const SERVICE_TARGET_PER_SECOND: u64 = 2_000;
/// At most this many heat strips are drawn; the picture says how many were left out.
const MAX_STRIPS: usize = 8;
/// At most this many partitions are named in the list beside the map.
const MAX_LISTED: usize = 15;
/// At most this many cells of the map carry a label.
const MAX_CELL_LABELS: usize = 60;

/// The picture's width in pixels; its height follows from what it holds ([`Layout`]).
const WIDTH: u32 = 1400;
const MARGIN: i32 = 28;
const TITLE_HEIGHT: i32 = 100;
/// The partition map section: its header, the map and the note under it.
const MAP_HEADER: i32 = 34;
const MAP_HEIGHT: i32 = 450;
const MAP_SECTION: i32 = MAP_HEADER + MAP_HEIGHT + 56;
/// The width of the colour scale and partition list right of the map.
const PANEL_WIDTH: i32 = 390;
const PANEL_GAP: i32 = 30;
/// The heat section: header lines, then the strips, then the time axis.
const HEAT_HEADER: i32 = 62;
const STRIP_TITLE: i32 = 22;
const STRIP_PLOT: i32 = 74;
const STRIP_HEIGHT: i32 = STRIP_TITLE + STRIP_PLOT + 14;
const TIME_AXIS: i32 = 46;
const NO_HEAT_NOTE: i32 = 70;
/// Where the note saying there are no heat strips starts, below the section's top.
const NO_HEAT_TOP: i32 = 32;
const EMPTY_NOTE: i32 = 160;
const BOTTOM: i32 = 16;
/// Room left of the strips for the writes-per-second ticks, right of them for the target label.
const STRIP_LEFT: i32 = MARGIN + 58;
const STRIP_RIGHT: i32 = WIDTH as i32 - MARGIN - 124;

/// The font: DejaVu Sans in the bitmap and for measuring text; in the SVG the viewer picks the
/// first of these it has: DejaVu Sans, or Verdana (about as wide), before any sans-serif.
const FONT_FAMILY: &str = "DejaVu Sans, Verdana, sans-serif";

const PAPER: RGBColor = RGBColor(255, 255, 255);
const INK: RGBColor = RGBColor(33, 33, 33);
const GREY_INK: RGBColor = RGBColor(100, 100, 100);
const RULE: RGBColor = RGBColor(210, 210, 210);
const PLOT_BACKGROUND: RGBColor = RGBColor(246, 246, 246);
const GRID: RGBColor = RGBColor(226, 226, 226);
const OTHERS: RGBColor = RGBColor(196, 196, 196);
/// Over the target: the bars, the dots on them and the target line.
const OVER: RGBColor = RGBColor(214, 39, 40);
const TARGET_LINE: RGBColor = RGBColor(190, 20, 20);
/// Entities per partition, few to many (ColorBrewer's YlGnBu without its palest step, which
/// would vanish on white).
const COUNT_SCALE: [RGBColor; 8] = [
    RGBColor(237, 248, 177),
    RGBColor(199, 233, 180),
    RGBColor(127, 205, 187),
    RGBColor(65, 182, 196),
    RGBColor(29, 145, 192),
    RGBColor(34, 94, 168),
    RGBColor(37, 52, 148),
    RGBColor(8, 29, 88),
];
/// Writes per second under the target, few to near the target.
const UNDER_SCALE: [RGBColor; 2] = [RGBColor(158, 202, 225), RGBColor(8, 81, 156)];

/// Registers DejaVu Sans and DejaVu Sans Bold with plotters under [`FONT_FAMILY`], once per
/// process.
fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            let fonts = [
                (FontStyle::Normal, dejavu::sans::regular()),
                (FontStyle::Bold, dejavu::sans::bold()),
            ];
            for (weight, bytes) in fonts {
                plotters::style::register_font(FONT_FAMILY, weight, bytes).map_err(|_| {
                    "cannot read the picture's built-in font (DejaVu Sans)".to_string()
                })?;
            }
            Ok(())
        })
        .clone()
}

fn drawing_error(e: impl std::fmt::Display) -> String {
    format!("cannot draw the picture: {e}")
}

/// A text style: the picture's font at `size` pixels, anchored at `h`, `v`.
fn style(size: f64, bold: bool, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    let weight = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    TextStyle {
        font: FontDesc::new(FontFamily::Name(FONT_FAMILY), size, weight),
        color: colour.to_backend_color(),
        pos: Pos::new(h, v),
    }
}

fn lerp(stops: &[RGBColor], t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let Some(last) = stops.len().checked_sub(1) else {
        return INK;
    };
    let at = t * last as f64;
    let i = (at.floor() as usize).min(last.saturating_sub(1));
    let (a, b) = (stops[i], stops[(i + 1).min(last)]);
    let f = at - i as f64;
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Dark text on light colours, white on dark ones.
fn ink_on(background: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(background.0)
        + 0.587 * f64::from(background.1)
        + 0.114 * f64::from(background.2);
    if luma > 150.0 { INK } else { PAPER }
}

/// Maps an entity count to `0..=1` on a log scale between the smallest and largest counts drawn.
#[derive(Debug, Clone, Copy)]
struct CountScale {
    low: f64,
    high: f64,
}

impl CountScale {
    fn new(counts: impl Iterator<Item = u64>) -> Self {
        let (mut low, mut high) = (u64::MAX, 0);
        for c in counts.filter(|&c| c > 0) {
            low = low.min(c);
            high = high.max(c);
        }
        if high == 0 {
            (low, high) = (1, 1);
        }
        CountScale {
            low: (low as f64).ln(),
            high: (high as f64).ln(),
        }
    }

    fn position(&self, count: u64) -> f64 {
        if self.high - self.low < 1e-9 {
            return 0.65;
        }
        ((count.max(1) as f64).ln() - self.low) / (self.high - self.low)
    }

    fn colour(&self, count: u64) -> RGBColor {
        lerp(&COUNT_SCALE, self.position(count))
    }

    fn low_count(&self) -> f64 {
        self.low.exp()
    }

    fn high_count(&self) -> f64 {
        self.high.exp()
    }
}

// ---------------------------------------------------------------------------------------------
// Text.

/// `n` with thousands separators: 1,234,567.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun for it: 1 partition, 2 partitions.
fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", thousands(n))
    }
}

/// A short axis number: 500, 2k, 1.5k, 12M.
fn compact(n: f64) -> String {
    const UNITS: [(f64, &str); 6] = [
        (1e18, "E"),
        (1e15, "P"),
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
    ];
    let (value, unit) = UNITS
        .iter()
        .find(|(size, _)| n >= *size)
        .map_or((n, ""), |(size, unit)| (n / size, *unit));
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}{unit}")
}

/// `part` as a share of `whole`: 42%, 3.5%, <0.1%.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        return String::new();
    }
    if part == 0 {
        return "0%".to_string();
    }
    let pct = part as f64 / whole as f64 * 100.0;
    if pct >= 9.95 {
        format!("{pct:.0}%")
    } else if pct >= 0.05 {
        format!("{pct:.1}%")
    } else {
        "<0.1%".to_string()
    }
}

/// Text from the data made safe to show: characters that XML cannot carry or that would
/// reorder the text around them (control and bidirectional formatting characters) are shown
/// as `\u{…}` escapes; an empty key is named as such.
fn shown(text: &str, empty: &str) -> String {
    if text.is_empty() {
        return empty.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let hidden = c.is_control()
            || matches!(c, '\u{FFFE}' | '\u{FFFF}' | '\u{200E}' | '\u{200F}')
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c);
        if hidden {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A PartitionKey as shown.
fn key_text(key: &str) -> String {
    shown(key, "(empty key)")
}

/// A UTC time from unix seconds, as `YYYY-MM-DD HH:MM:SS`, or the bare number out of range.
fn utc(seconds: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(seconds) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        ),
        Err(_) => format!("unix second {seconds}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing primitives over either backend.

struct Painter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    fn fill(&self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), colour: RGBColor) -> Draw {
        let shape = ShapeStyle {
            color: colour.to_rgba(),
            filled: true,
            stroke_width: 0,
        };
        self.area
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], shape))
            .map_err(drawing_error)
    }

    fn outline(&self, corner: (i32, i32), other: (i32, i32), colour: RGBColor, width: u32) -> Draw {
        let shape = ShapeStyle {
            color: colour.to_rgba(),
            filled: false,
            stroke_width: width,
        };
        self.area
            .draw(&Rectangle::new([corner, other], shape))
            .map_err(drawing_error)
    }

    fn line(&self, from: (i32, i32), to: (i32, i32), colour: RGBAColor, width: u32) -> Draw {
        let shape = ShapeStyle {
            color: colour,
            filled: false,
            stroke_width: width,
        };
        self.area
            .draw(&PathElement::new(vec![from, to], shape))
            .map_err(drawing_error)
    }

    fn dashed(&self, from: (i32, i32), to: (i32, i32), colour: RGBColor, width: u32) -> Draw {
        let shape = ShapeStyle {
            color: colour.to_rgba(),
            filled: false,
            stroke_width: width,
        };
        self.area
            .draw(&DashedPathElement::new(vec![from, to], 9, 5, shape))
            .map_err(drawing_error)
    }

    fn dot(&self, centre: (i32, i32), radius: i32, colour: RGBColor) -> Draw {
        let shape = ShapeStyle {
            color: colour.to_rgba(),
            filled: true,
            stroke_width: 0,
        };
        self.area
            .draw(&Circle::new(centre, radius, shape))
            .map_err(drawing_error)
    }

    fn text(&self, text: &str, at: (i32, i32), style: &TextStyle) -> Draw {
        self.area
            .draw(&Text::new(text.to_string(), at, style.clone()))
            .map_err(drawing_error)
    }

    fn width_of(&self, text: &str, style: &TextStyle) -> Result<i32, String> {
        let (w, _) = self
            .area
            .estimate_text_size(text, style)
            .map_err(drawing_error)?;
        Ok(i32::try_from(w).unwrap_or(i32::MAX))
    }

    /// `text`, cut short with an ellipsis to fit in `width` pixels; `None` when not even the
    /// ellipsis fits.
    fn fit(&self, text: &str, style: &TextStyle, width: i32) -> Result<Option<String>, String> {
        if self.width_of(text, style)? <= width {
            return Ok(Some(text.to_string()));
        }
        let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        let cut = |n: usize| format!("{}…", &text[..ends[n]]);
        // The longest prefix that fits, by bisection over the character boundaries.
        let (mut lo, mut hi) = (0usize, ends.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.width_of(&cut(mid), style)? <= width {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo > 0 {
            return Ok(Some(cut(lo - 1)));
        }
        Ok((self.width_of("…", style)? <= width).then(|| "…".to_string()))
    }

    /// Draws `text` cut short to `width` pixels, if anything of it fits.
    fn fitted_text(&self, text: &str, at: (i32, i32), style: &TextStyle, width: i32) -> Draw {
        match self.fit(text, style, width)? {
            Some(fitted) => self.text(&fitted, at, style),
            None => Ok(()),
        }
    }
}

type Draw = Result<(), String>;

// ---------------------------------------------------------------------------------------------
// The picture.

/// Where the sections go, and so how tall the picture is.
#[derive(Debug, Clone, Copy)]
struct Layout {
    height: u32,
    /// Nothing was read: the picture is a title and a note.
    empty: bool,
    map_top: i32,
    heat_top: i32,
    strips: usize,
}

impl Layout {
    fn of(data: &PictureData) -> Self {
        let empty = data.entities == 0
            && data.others.1 == 0
            && data.largest.iter().all(|&(_, count)| count == 0);
        let strips = data.heat.len().min(MAX_STRIPS);
        let map_top = TITLE_HEIGHT;
        let heat_top = map_top + MAP_SECTION;
        let bottom = if empty {
            TITLE_HEIGHT + EMPTY_NOTE
        } else if strips == 0 {
            heat_top + NO_HEAT_TOP + NO_HEAT_NOTE
        } else {
            heat_top + HEAT_HEADER + strips as i32 * STRIP_HEIGHT + TIME_AXIS
        };
        Layout {
            height: (bottom + BOTTOM) as u32,
            empty,
            map_top,
            heat_top,
            strips,
        }
    }
}

fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &PictureData,
    layout: &Layout,
) -> Draw {
    area.fill(&PAPER).map_err(drawing_error)?;
    let painter = Painter { area };
    draw_title(&painter, data)?;
    if layout.empty {
        return draw_empty(&painter, data);
    }
    draw_map(&painter, data, layout.map_top)?;
    draw_heat(&painter, data, layout)
}

fn draw_title<DB: DrawingBackend>(p: &Painter<DB>, data: &PictureData) -> Draw {
    let width = WIDTH as i32 - 2 * MARGIN;
    let title = format!("Table {}", shown(&data.table, "(unnamed)"));
    let heading = style(30.0, true, INK, HPos::Left, VPos::Top);
    p.fitted_text(&title, (MARGIN, 22), &heading, width)?;

    let mut facts = Vec::new();
    if !data.scope.trim().is_empty() {
        facts.push(shown(data.scope.trim(), ""));
    }
    facts.push(format!(
        "{} read",
        counted(data.entities, "entity", "entities")
    ));
    facts.push(counted(data.partitions, "partition", "partitions"));
    if let Some((_, top)) = data.largest.first()
        && data.partitions > 1
        && data.entities > 0
    {
        facts.push(format!(
            "the largest holds {} of the entities read",
            share(*top, data.entities)
        ));
    }
    let subtitle = style(16.0, false, GREY_INK, HPos::Left, VPos::Top);
    p.fitted_text(&facts.join("  ·  "), (MARGIN, 62), &subtitle, width)?;
    p.line(
        (MARGIN, TITLE_HEIGHT - 10),
        (WIDTH as i32 - MARGIN, TITLE_HEIGHT - 10),
        RULE.to_rgba(),
        1,
    )
}

fn draw_empty<DB: DrawingBackend>(p: &Painter<DB>, data: &PictureData) -> Draw {
    let top = TITLE_HEIGHT + 10;
    let (left, right) = (MARGIN, WIDTH as i32 - MARGIN);
    p.fill((left, top), (right, top + EMPTY_NOTE - 20), PLOT_BACKGROUND)?;
    let centre = (left + right) / 2;
    let big = style(24.0, true, INK, HPos::Center, VPos::Top);
    let what = if data.partitions == 0 {
        "The table is empty"
    } else {
        "The table's partitions are empty"
    };
    p.text(what, (centre, top + 38), &big)?;
    let small = style(15.0, false, GREY_INK, HPos::Center, VPos::Top);
    p.text(
        "No entities were read, so there are no partitions to map and no writes over time to chart.",
        (centre, top + 84),
        &small,
    )
}

// ----- The partition map.

/// A rectangle in picture coordinates, not yet rounded to pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Frame {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Frame {
    /// The frame with x and y swapped.
    fn transposed(self) -> Frame {
        Frame {
            x: self.y,
            y: self.x,
            w: self.h,
            h: self.w,
        }
    }

    fn pixels(&self) -> ((i32, i32), (i32, i32)) {
        let px = |v: f64| v.round() as i32;
        (
            (px(self.x), px(self.y)),
            (px(self.x + self.w), px(self.y + self.h)),
        )
    }
}

/// Lays out `weights` (best largest first) in `bounds`, each frame's area proportional to its
/// weight, the frames as square as the squarified treemap gets them (Bruls, Huizing and van
/// Wijk, 2000): rows are filled along the shorter side while that improves their worst aspect
/// ratio. Non-positive weights get empty frames.
fn squarify(weights: &[f64], bounds: Frame) -> Vec<Frame> {
    let nothing = Frame {
        w: 0.0,
        h: 0.0,
        ..bounds
    };
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    if total <= 0.0 || !total.is_finite() || bounds.w <= 0.0 || bounds.h <= 0.0 {
        return vec![nothing; weights.len()];
    }
    let scale = bounds.w * bounds.h / total;
    let areas: Vec<f64> = weights.iter().map(|w| w.max(0.0) * scale).collect();
    let mut frames = Vec::with_capacity(areas.len());
    let mut free = bounds;
    let mut start = 0;
    while start < areas.len() {
        let side = free.w.min(free.h);
        let mut row = Row::of(areas[start]);
        let mut end = start + 1;
        while let Some(&next) = areas.get(end) {
            let longer = row.with(next);
            if longer.worst_ratio(side) > row.worst_ratio(side) {
                break;
            }
            row = longer;
            end += 1;
        }
        free = lay_row(&areas[start..end], free, &mut frames);
        start = end;
    }
    frames
}

/// What the squarified layout needs to know of a row of areas.
#[derive(Debug, Clone, Copy)]
struct Row {
    sum: f64,
    smallest: f64,
    largest: f64,
}

impl Row {
    fn of(area: f64) -> Self {
        Row {
            sum: area,
            smallest: area,
            largest: area,
        }
    }

    fn with(self, area: f64) -> Self {
        Row {
            sum: self.sum + area,
            smallest: self.smallest.min(area),
            largest: self.largest.max(area),
        }
    }

    /// The worst aspect ratio of the row's rectangles laid along a side of length `side`.
    fn worst_ratio(&self, side: f64) -> f64 {
        if self.sum <= 0.0 || side <= 0.0 || self.smallest <= 0.0 {
            return f64::INFINITY;
        }
        let (side2, sum2) = (side * side, self.sum * self.sum);
        (side2 * self.largest / sum2).max(sum2 / (side2 * self.smallest))
    }
}

/// Lays one row of `areas` along the shorter side of `free`, returning what is left of it.
fn lay_row(areas: &[f64], free: Frame, frames: &mut Vec<Frame>) -> Frame {
    if free.w >= free.h {
        return lay_column(areas, free, frames);
    }
    // A row at the top is a column at the left with the axes swapped.
    let first = frames.len();
    let left = lay_column(areas, free.transposed(), frames);
    for f in &mut frames[first..] {
        *f = f.transposed();
    }
    left.transposed()
}

/// Lays `areas` as a column at the left of `free`, filled top to bottom.
fn lay_column(areas: &[f64], free: Frame, frames: &mut Vec<Frame>) -> Frame {
    let sum: f64 = areas.iter().sum();
    let width = if free.h > 0.0 {
        (sum / free.h).min(free.w)
    } else {
        0.0
    };
    let mut y = free.y;
    for a in areas {
        let h = if width > 0.0 { a / width } else { 0.0 };
        frames.push(Frame {
            x: free.x,
            y,
            w: width,
            h,
        });
        y += h;
    }
    Frame {
        x: free.x + width,
        w: free.w - width,
        ..free
    }
}

/// One cell of the map: a partition, or the partitions not passed in one by one.
struct Cell {
    label: String,
    detail: String,
    count: u64,
    colour: RGBColor,
}

fn draw_map<DB: DrawingBackend>(p: &Painter<DB>, data: &PictureData, top: i32) -> Draw {
    let header = style(19.0, true, INK, HPos::Left, VPos::Top);
    p.text("Partitions by size", (MARGIN, top), &header)?;
    let legend_line =
        "cell area: the partition's share of the entities read;  colour: its entity count";
    let note = style(13.0, false, GREY_INK, HPos::Left, VPos::Top);
    let header_width = p.width_of("Partitions by size", &header)?;
    p.text(legend_line, (MARGIN + header_width + 16, top + 5), &note)?;

    let map_top = top + MAP_HEADER;
    let map_right = WIDTH as i32 - MARGIN - PANEL_WIDTH - PANEL_GAP;
    let scale = CountScale::new(data.largest.iter().map(|&(_, c)| c));
    let drawn_total = data.entities.max(
        data.largest
            .iter()
            .map(|&(_, c)| c)
            .fold(data.others.1, u64::saturating_add),
    );

    let mut cells: Vec<Cell> = data
        .largest
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(key, count)| Cell {
            label: key_text(key),
            detail: format!("{} · {}", thousands(*count), share(*count, drawn_total)),
            count: *count,
            colour: scale.colour(*count),
        })
        .collect();
    if data.others.1 > 0 {
        cells.push(Cell {
            label: counted(data.others.0, "other partition", "other partitions"),
            detail: format!(
                "{} · {}",
                counted(data.others.1, "entity", "entities"),
                share(data.others.1, drawn_total)
            ),
            count: data.others.1,
            colour: OTHERS,
        });
    }

    let bounds = Frame {
        x: f64::from(MARGIN),
        y: f64::from(map_top),
        w: f64::from(map_right - MARGIN),
        h: f64::from(MAP_HEIGHT),
    };
    if cells.is_empty() {
        p.fill(
            (MARGIN, map_top),
            (map_right, map_top + MAP_HEIGHT),
            PLOT_BACKGROUND,
        )?;
        let centre = style(15.0, false, GREY_INK, HPos::Center, VPos::Center);
        p.text(
            "No partition holds an entity: nothing to map",
            ((MARGIN + map_right) / 2, map_top + MAP_HEIGHT / 2),
            &centre,
        )?;
    } else {
        let weights: Vec<f64> = cells.iter().map(|c| c.count as f64).collect();
        let frames = squarify(&weights, bounds);
        for (cell, frame) in cells.iter().zip(&frames) {
            let (a, b) = frame.pixels();
            p.fill(a, b, cell.colour)?;
            if b.0 - a.0 >= 4 && b.1 - a.1 >= 4 {
                p.outline(a, b, PAPER, 1)?;
            }
        }
        let mut labelled = 0;
        for (cell, frame) in cells.iter().zip(&frames) {
            if labelled >= MAX_CELL_LABELS {
                break;
            }
            if draw_cell_label(p, cell, frame)? {
                labelled += 1;
            }
        }
    }

    draw_panel(p, data, &scale, drawn_total, map_top, map_right + PANEL_GAP)?;

    // What was left out.
    let note_y = map_top + MAP_HEIGHT + 12;
    let (others, others_entities) = data.others;
    let shown_partitions = data.largest.len() as u64;
    let text = if others > 0 {
        format!(
            "The {} drawn one by one; the other {} ({}) are not: together they are the grey cell.",
            counted(
                shown_partitions,
                "largest partition is",
                "largest partitions are"
            ),
            counted(others, "partition", "partitions"),
            counted(others_entities, "entity", "entities"),
        )
    } else if shown_partitions.max(data.partitions) == 1 {
        "The table's one partition is drawn.".to_string()
    } else {
        format!(
            "All {} partitions are drawn.",
            thousands(shown_partitions.max(data.partitions))
        )
    };
    let note_style = style(14.0, false, GREY_INK, HPos::Left, VPos::Top);
    p.fitted_text(&text, (MARGIN, note_y), &note_style, map_right - MARGIN)
}

/// Writes a cell's key and count inside it when they fit; says whether anything was written.
fn draw_cell_label<DB: DrawingBackend>(
    p: &Painter<DB>,
    cell: &Cell,
    frame: &Frame,
) -> Result<bool, String> {
    let ((x0, y0), (x1, y1)) = frame.pixels();
    let (w, h) = (x1 - x0, y1 - y0);
    let size = if w >= 140 && h >= 48 { 14.0 } else { 12.0 };
    let line = (size * 1.3) as i32;
    if w < 64 || h < line + 6 {
        return Ok(false);
    }
    let ink = ink_on(cell.colour);
    let key_style = style(size, true, ink, HPos::Left, VPos::Top);
    // A key cut to fewer than a handful of characters says nothing: no label then.
    match p.fit(&cell.label, &key_style, w - 10)? {
        Some(key) if key.chars().count() > 5 || !key.ends_with('…') => {
            p.text(&key, (x0 + 5, y0 + 5), &key_style)?;
        }
        _ => return Ok(false),
    }
    if h >= 2 * line + 8 {
        // The count and share, else the count alone, whole or not at all.
        let detail_style = style(size - 1.0, false, ink, HPos::Left, VPos::Top);
        let count = thousands(cell.count);
        for detail in [&cell.detail, &count] {
            if p.width_of(detail, &detail_style)? <= w - 10 {
                p.text(detail, (x0 + 5, y0 + 6 + line), &detail_style)?;
                break;
            }
        }
    }
    Ok(true)
}

/// The colour scale and the largest partitions by name, right of the map.
fn draw_panel<DB: DrawingBackend>(
    p: &Painter<DB>,
    data: &PictureData,
    scale: &CountScale,
    total: u64,
    top: i32,
    left: i32,
) -> Draw {
    let right = WIDTH as i32 - MARGIN;
    let width = right - left;
    let heading = style(15.0, true, INK, HPos::Left, VPos::Top);
    let small = style(12.0, false, GREY_INK, HPos::Left, VPos::Top);

    // The colour scale.
    p.text("Entities per partition (log scale)", (left, top), &heading)?;
    let bar_top = top + 26;
    let bar_bottom = bar_top + 16;
    let steps = 120;
    for i in 0..steps {
        let x0 = left + width * i / steps;
        let x1 = left + width * (i + 1) / steps;
        let colour = lerp(&COUNT_SCALE, f64::from(i) / f64::from(steps - 1));
        p.fill((x0, bar_top), (x1, bar_bottom), colour)?;
    }
    p.outline((left, bar_top), (right, bar_bottom), RULE, 1)?;
    let (low, high) = (scale.low_count(), scale.high_count());
    let tick = |count: f64| -> i32 {
        let t = if high / low > 1.0 + 1e-9 {
            (count.ln() - low.ln()) / (high.ln() - low.ln())
        } else {
            0.5
        };
        left + (t.clamp(0.0, 1.0) * f64::from(width)).round() as i32
    };
    let mut ticks: Vec<(i32, String, HPos)> = Vec::new();
    if high / low <= 1.0 + 1e-9 {
        // A single count: its one colour, marked where it sits on the scale.
        let x = left + (scale.position(high as u64) * f64::from(width)).round() as i32;
        ticks.push((x, compact(high.round()), HPos::Center));
    } else {
        ticks.push((left, compact(low.round()), HPos::Left));
        // Powers of ten between the ends, where they leave room around their labels.
        let mut power = 10f64.powf(low.log10().floor() + 1.0);
        while power < high {
            let x = tick(power);
            if x - left > 50 && right - x > 50 && ticks.last().is_some_and(|t| x - t.0 > 50) {
                ticks.push((x, compact(power), HPos::Center));
            }
            power *= 10.0;
        }
        ticks.push((right, compact(high.round()), HPos::Right));
    }
    for (x, label, h) in &ticks {
        p.line(
            (*x, bar_bottom),
            (*x, bar_bottom + 4),
            GREY_INK.to_rgba(),
            1,
        )?;
        let tick_style = style(12.0, false, GREY_INK, *h, VPos::Top);
        p.text(label, (*x, bar_bottom + 6), &tick_style)?;
    }
    let mut y = bar_bottom + 28;
    if data.others.1 > 0 {
        p.fill((left, y + 1), (left + 14, y + 13), OTHERS)?;
        p.text(
            "the partitions not drawn one by one, together",
            (left + 20, y),
            &small,
        )?;
        y += 22;
    }

    // The largest partitions by name.
    y += 10;
    p.text("Largest partitions", (left, y), &heading)?;
    y += 24;
    let row_style = style(13.0, false, INK, HPos::Left, VPos::Top);
    let number_style = style(13.0, false, INK, HPos::Right, VPos::Top);
    let share_style = style(13.0, false, GREY_INK, HPos::Right, VPos::Top);
    let room = (top + MAP_HEIGHT - y) / 21;
    let listed: Vec<&(String, u64)> = data
        .largest
        .iter()
        .take(MAX_LISTED.min(usize::try_from(room.max(0)).unwrap_or(0)))
        .collect();
    if listed.is_empty() {
        return p.text("none", (left, y), &small);
    }
    let mut count_width = 0;
    let mut share_width = 0;
    for (_, count) in &listed {
        count_width = count_width.max(p.width_of(&thousands(*count), &number_style)?);
        share_width = share_width.max(p.width_of(&share(*count, total), &share_style)?);
    }
    let rank_width = p.width_of(&format!("{}.", listed.len()), &row_style)?;
    let key_left = left + 18 + rank_width + 6;
    let share_right = right;
    let count_right = share_right - share_width - 12;
    let key_width = count_right - count_width - 12 - key_left;
    for (i, (key, count)) in listed.iter().enumerate() {
        p.fill((left, y + 2), (left + 12, y + 14), scale.colour(*count))?;
        p.text(&format!("{}.", i + 1), (left + 18, y), &row_style)?;
        p.fitted_text(&key_text(key), (key_left, y), &row_style, key_width)?;
        p.text(&thousands(*count), (count_right, y), &number_style)?;
        p.text(&share(*count, total), (share_right, y), &share_style)?;
        y += 21;
    }
    Ok(())
}

// ----- The heat strips.

/// The time axis shared by the strips: seconds from `start`, in `bins` bins of `bin` seconds.
#[derive(Debug, Clone, Copy)]
struct TimeAxis {
    start: i64,
    bin: i64,
    bins: i64,
}

impl TimeAxis {
    /// The axis over every point of `strips`, at least a minute long, in at most `max_bins` bins.
    fn over(strips: &[HeatStrip], max_bins: i64) -> Self {
        let times = strips.iter().flat_map(|s| s.per_second.iter().map(|p| p.0));
        let (first, last) = times.fold((i64::MAX, i64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
        let (first, last) = if first > last { (0, 0) } else { (first, last) };
        // The span in whole seconds, widened to a minute around a short burst.
        let span = i128::from(last) - i128::from(first) + 1;
        let (start, span) = if span < 60 {
            let pad = (60 - span) / 2;
            (i128::from(first) - pad, 60)
        } else {
            (i128::from(first), span)
        };
        let max_bins = i128::from(max_bins.max(1));
        let bin = ((span + max_bins - 1) / max_bins).max(1);
        let bins = (span + bin - 1) / bin;
        let clamp = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        TimeAxis {
            start: clamp(start),
            bin: clamp(bin),
            bins: clamp(bins),
        }
    }

    fn span(&self) -> i128 {
        i128::from(self.bin) * i128::from(self.bins)
    }

    fn end(&self) -> i128 {
        i128::from(self.start) + self.span()
    }

    /// The bin holding second `t`.
    fn bin_of(&self, t: i64) -> usize {
        let offset = (i128::from(t) - i128::from(self.start)).max(0) / i128::from(self.bin);
        usize::try_from(offset.min(i128::from(self.bins) - 1)).unwrap_or(0)
    }

    /// The x pixel of the second `offset` seconds after the axis start, the axis drawn from
    /// `left` to `right`.
    fn x(&self, offset: i128, left: i32, right: i32) -> i32 {
        let t = offset as f64 / self.span() as f64;
        left + (t.clamp(0.0, 1.0) * f64::from(right - left)).round() as i32
    }
}

/// A readable length of time: 1 second, 30 seconds, 5 minutes, 2 hours, 3 days.
fn duration(seconds: i64) -> String {
    let (n, unit) = if seconds % 86_400 == 0 && seconds >= 86_400 {
        (seconds / 86_400, "day")
    } else if seconds % 3_600 == 0 && seconds >= 3_600 {
        (seconds / 3_600, "hour")
    } else if seconds % 60 == 0 && seconds >= 60 {
        (seconds / 60, "minute")
    } else {
        (seconds, "second")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{} {unit}s", thousands(n.unsigned_abs()))
    }
}

fn draw_heat<DB: DrawingBackend>(p: &Painter<DB>, data: &PictureData, layout: &Layout) -> Draw {
    let top = layout.heat_top;
    let target = if data.target_per_second == 0 {
        SERVICE_TARGET_PER_SECOND
    } else {
        data.target_per_second
    };
    let header = style(19.0, true, INK, HPos::Left, VPos::Top);
    let note = style(13.0, false, GREY_INK, HPos::Left, VPos::Top);
    let title = if data.heat.is_empty() {
        "Writes per second".to_string()
    } else if data.heat.len() > MAX_STRIPS {
        format!(
            "Writes per second, the {MAX_STRIPS} hottest of {} partitions charted",
            data.heat.len()
        )
    } else if data.heat.len() == 1 {
        "Writes per second, the hottest partition".to_string()
    } else {
        format!(
            "Writes per second, the {} hottest partitions",
            data.heat.len()
        )
    };
    p.text(&title, (MARGIN, top), &header)?;
    let strips = &data.heat[..layout.strips];
    if strips.is_empty() {
        let box_top = top + NO_HEAT_TOP;
        p.fill(
            (MARGIN, box_top),
            (WIDTH as i32 - MARGIN, box_top + NO_HEAT_NOTE),
            PLOT_BACKGROUND,
        )?;
        let centre = style(15.0, false, GREY_INK, HPos::Center, VPos::Center);
        return p.text(
            "No heat strips: the entities read carry no Timestamp, so their writes over time are unknown.",
            (WIDTH as i32 / 2, box_top + NO_HEAT_NOTE / 2),
            &centre,
        );
    }

    let axis = TimeAxis::over(strips, i64::from((STRIP_RIGHT - STRIP_LEFT) / 2));
    let explanation = if axis.bin == 1 {
        format!(
            "By entity Timestamp, UTC: one bar per second. Red: seconds over the target of {} entities per second per partition (dashed line).",
            thousands(target)
        )
    } else {
        format!(
            "By entity Timestamp, UTC: each bar is the busiest second in {}. Red: over the target of {} entities per second per partition (dashed line).",
            duration(axis.bin),
            thousands(target)
        )
    };
    p.fitted_text(
        &explanation,
        (MARGIN, top + 28),
        &note,
        WIDTH as i32 - 2 * MARGIN,
    )?;

    let ticks = time_ticks(&axis);
    let mut strip_top = top + HEAT_HEADER;
    for (rank, strip) in strips.iter().enumerate() {
        draw_strip(p, rank + 1, strip, &axis, &ticks, target, strip_top)?;
        strip_top += STRIP_HEIGHT;
    }

    // The time axis, under the last strip.
    let axis_y = strip_top - STRIP_HEIGHT + STRIP_TITLE + STRIP_PLOT;
    let label_style = style(12.0, false, GREY_INK, HPos::Center, VPos::Top);
    for tick in &ticks {
        let x = axis.x(tick.offset, STRIP_LEFT, STRIP_RIGHT);
        p.line((x, axis_y), (x, axis_y + 5), GREY_INK.to_rgba(), 1)?;
        p.text(&tick.label, (x, axis_y + 8), &label_style)?;
    }
    let range = format!(
        "time, UTC: {} to {}",
        utc(axis.start),
        utc(i64::try_from(axis.end()).unwrap_or(i64::MAX))
    );
    let caption = style(12.0, false, GREY_INK, HPos::Left, VPos::Top);
    p.text(&range, (STRIP_LEFT, axis_y + 26), &caption)
}

/// A labelled tick of the time axis, `offset` seconds after its start.
struct TimeTick {
    offset: i128,
    label: String,
}

/// Ticks at round times (whole seconds, minutes, hours or days), at most about eight.
fn time_ticks(axis: &TimeAxis) -> Vec<TimeTick> {
    const STEPS: [i64; 21] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200,
        86_400, 172_800, 604_800, 2_592_000,
    ];
    let span = axis.span();
    let step = STEPS
        .iter()
        .copied()
        .find(|&s| span / i128::from(s) <= 8)
        .map_or_else(|| (span / 8).max(1), i128::from);
    let start = i128::from(axis.start);
    let mut t = start.div_euclid(step) * step;
    if t < start {
        t += step;
    }
    let crosses_days = span > 86_400 || start.div_euclid(86_400) != axis.end().div_euclid(86_400);
    let mut ticks = Vec::new();
    while t <= axis.end() && ticks.len() < 16 {
        let label = match i64::try_from(t)
            .ok()
            .and_then(|t| time::OffsetDateTime::from_unix_timestamp(t).ok())
        {
            Some(at) if step >= 86_400 => format!(
                "{:04}-{:02}-{:02}",
                at.year(),
                u8::from(at.month()),
                at.day()
            ),
            Some(at) if crosses_days => format!(
                "{:02}-{:02} {:02}:{:02}",
                u8::from(at.month()),
                at.day(),
                at.hour(),
                at.minute()
            ),
            Some(at) if step < 60 => {
                format!("{:02}:{:02}:{:02}", at.hour(), at.minute(), at.second())
            }
            Some(at) => format!("{:02}:{:02}", at.hour(), at.minute()),
            None => t.to_string(),
        };
        ticks.push(TimeTick {
            offset: t - start,
            label,
        });
        t += step;
    }
    ticks
}

/// A nice step for about three ticks up to `max`: 1, 2 or 5 times a power of ten.
fn nice_step(max: f64) -> f64 {
    let rough = (max / 3.0).max(1.0);
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power)
}

fn draw_strip<DB: DrawingBackend>(
    p: &Painter<DB>,
    rank: usize,
    strip: &HeatStrip,
    axis: &TimeAxis,
    ticks: &[TimeTick],
    target: u64,
    top: i32,
) -> Draw {
    let (left, right) = (STRIP_LEFT, STRIP_RIGHT);
    let plot_top = top + STRIP_TITLE;
    let plot_bottom = plot_top + STRIP_PLOT;

    // The title: which partition, its peak, its seconds over the target.
    let busiest = strip
        .per_second
        .iter()
        .max_by_key(|p| (p.1, std::cmp::Reverse(p.0)));
    let peak = strip
        .peak_per_second
        .max(busiest.map_or(0, |&(_, writes)| writes));
    let over = strip.per_second.iter().filter(|p| p.1 > target).count() as u64;
    let facts = match busiest {
        None => "no write carries a Timestamp".to_string(),
        Some(&(at, _)) => {
            let over = match over {
                0 => "never over the target".to_string(),
                1 => "1 second over the target".to_string(),
                n => format!("{} seconds over the target", thousands(n)),
            };
            format!(
                "peak {}/s at {}  ·  {over}",
                counted(peak, "write", "writes"),
                utc(at)
            )
        }
    };
    let name_style = style(14.0, true, INK, HPos::Left, VPos::Top);
    let facts_style = style(
        13.0,
        false,
        if over > 0 { OVER } else { GREY_INK },
        HPos::Left,
        VPos::Top,
    );
    let facts_width = p.width_of(&facts, &facts_style)?;
    let name_room = (right - MARGIN - facts_width - 24).max(120);
    let name = p
        .fit(
            &format!("{rank}. {}", key_text(&strip.partition)),
            &name_style,
            name_room,
        )?
        .unwrap_or_default();
    let name_width = p.width_of(&name, &name_style)?;
    p.text(&name, (MARGIN, top), &name_style)?;
    p.fitted_text(
        &facts,
        (MARGIN + name_width + 16, top + 1),
        &facts_style,
        right - MARGIN - name_width - 16,
    )?;

    // The plot area, its grid and its writes-per-second scale.
    p.fill((left, plot_top), (right, plot_bottom), PLOT_BACKGROUND)?;
    for tick in ticks {
        let x = axis.x(tick.offset, left, right);
        p.line((x, plot_top), (x, plot_bottom), GRID.to_rgba(), 1)?;
    }
    let y_max = (peak.max(target) as f64 * 1.15).max(1.0);
    let y_of =
        |v: f64| plot_bottom - ((v / y_max).clamp(0.0, 1.0) * f64::from(STRIP_PLOT)).round() as i32;
    let step = nice_step(y_max);
    let tick_style = style(11.0, false, GREY_INK, HPos::Right, VPos::Center);
    let mut v = 0.0;
    while v <= y_max {
        let y = y_of(v);
        p.line((left - 4, y), (left, y), GREY_INK.to_rgba(), 1)?;
        p.text(&compact(v), (left - 7, y), &tick_style)?;
        v += step;
    }

    // The bars: the busiest second of each bin.
    let mut bins = vec![0u64; usize::try_from(axis.bins).unwrap_or(0)];
    for &(t, writes) in &strip.per_second {
        if let Some(slot) = bins.get_mut(axis.bin_of(t)) {
            *slot = (*slot).max(writes);
        }
    }
    let mut over_tops = Vec::new();
    for (i, &writes) in bins.iter().enumerate() {
        if writes == 0 {
            continue;
        }
        let from = i128::try_from(i).unwrap_or(0) * i128::from(axis.bin);
        let x0 = axis.x(from, left, right);
        let mut x1 = axis.x(from + i128::from(axis.bin), left, right);
        if x1 - x0 >= 4 {
            x1 -= 1;
        }
        // Even a single write shows.
        let y = y_of(writes as f64).min(plot_bottom - 2);
        let colour = if writes > target {
            over_tops.push(((x0 + x1) / 2, y));
            OVER
        } else {
            lerp(&UNDER_SCALE, writes as f64 / target as f64)
        };
        p.fill((x0, y), (x1.max(x0 + 1), plot_bottom), colour)?;
    }
    for centre in over_tops {
        p.dot(centre, 3, OVER)?;
    }
    p.line(
        (left, plot_bottom),
        (right, plot_bottom),
        GREY_INK.to_rgba(),
        1,
    )?;

    // The target line, labelled at its right end.
    let target_y = y_of(target as f64);
    p.dashed((left, target_y), (right, target_y), TARGET_LINE, 2)?;
    let target_style = style(12.0, true, TARGET_LINE, HPos::Left, VPos::Center);
    p.text(
        &format!("target {}/s", thousands(target)),
        (right + 8, target_y),
        &target_style,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of 40 tenants, one of them with an awkward key, the hottest writing over the
    /// target for a while.
    fn realistic() -> PictureData {
        let mut largest = vec![("Tenant<&\"'>Ünïcødé".to_string(), 1_250_000u64)];
        for i in 1..40u64 {
            largest.push((format!("tenant-{i:04}"), 900_000 / (i * i) + 17));
        }
        let entities: u64 = largest.iter().map(|p| p.1).sum::<u64>() + 48_000;
        let start = 1_717_200_000i64;
        let heat = (0..5)
            .map(|s| {
                let per_second: Vec<(i64, u64)> = (0..3_000)
                    .filter(|t| t % (s + 2) != 0)
                    .map(|t| {
                        let wave = ((t as f64 / 200.0).sin() + 1.0) * 900.0;
                        let burst = if (1_200..1_500).contains(&t) && s == 0 {
                            1_900.0
                        } else {
                            0.0
                        };
                        (start + t, (wave + burst) as u64 / (s as u64 + 1) + 1)
                    })
                    .collect();
                let peak = per_second.iter().map(|p| p.1).max().unwrap_or(0);
                HeatStrip {
                    partition: largest[s as usize].0.clone(),
                    per_second,
                    peak_per_second: peak,
                }
            })
            .collect();
        PictureData {
            table: "Orders".to_string(),
            scope: "full table".to_string(),
            entities,
            partitions: 1_240,
            largest,
            others: (1_200, 48_000),
            heat,
            target_per_second: 2_000,
        }
    }

    /// The text of every text node of `svg`, entity references resolved, after checking that
    /// it is well-formed XML with one `svg` root element.
    fn svg_texts(svg: &str) -> Vec<String> {
        use quick_xml::events::Event;
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut depth = 0usize;
        let mut roots = 0;
        let mut texts = Vec::new();
        let mut current = String::new();
        loop {
            match reader.read_event().expect("the SVG is well-formed XML") {
                Event::Start(e) => {
                    if depth == 0 {
                        roots += 1;
                        assert_eq!(e.name().as_ref(), "svg");
                    }
                    depth += 1;
                }
                Event::End(_) => {
                    depth = depth.checked_sub(1).expect("balanced tags");
                    if !current.trim().is_empty() {
                        texts.push(current.trim().to_string());
                    }
                    current.clear();
                }
                Event::Text(t) => current.push_str(&t.xml10_content()),
                Event::GeneralRef(r) => {
                    let name = r.into_inner();
                    let resolved = quick_xml::escape::resolve_predefined_entity(&name)
                        .unwrap_or_else(|| panic!("unknown entity `&{name};`"));
                    current.push_str(resolved);
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(depth, 0, "every element is closed");
        assert_eq!(roots, 1, "one root element");
        texts
    }

    /// A directory of its own for one test, removed when the test is done with it.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(test: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("table-lint-picture-{}-{test}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn path(&self, name: &str) -> std::path::PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn svg_names_the_table_the_largest_partition_and_the_target() {
        let svg = svg(&realistic()).unwrap();
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "Table Orders"), "{texts:?}");
        assert!(
            texts
                .iter()
                .any(|t| t.contains("full table") && t.contains("1,240 partitions"))
        );
        // The awkward key, escaped in the markup and whole in the text.
        assert!(svg.contains("Tenant&lt;&amp;&quot;&apos;&gt;Ünïcødé"));
        assert!(!svg.contains("Tenant<&"));
        assert!(
            texts.iter().any(|t| t == "Tenant<&\"'>Ünïcødé"),
            "{texts:?}"
        );
        assert_eq!(texts.iter().filter(|t| *t == "target 2,000/s").count(), 5);
        assert!(
            texts.iter().any(|t| t.contains("1,200 partitions")),
            "the note on the rest"
        );
        assert!(texts.iter().any(|t| t.contains("seconds over the target")));
    }

    #[test]
    fn png_is_a_png_of_the_picture() {
        let scratch = Scratch::new("png");
        let path = scratch.path("realistic.png");
        write(&realistic(), &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(bytes.len() > 20_000, "{} bytes", bytes.len());
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.width, WIDTH);
        assert_eq!(info.height, Layout::of(&realistic()).height);
        // Something is drawn: well over a tenth of the picture is not white, and some of it is
        // the red of the seconds over the target.
        let rgb: Vec<&[u8]> = pixels.chunks(3).collect();
        let inked = rgb.iter().filter(|p| p != &&[255u8, 255, 255]).count();
        assert!(inked > rgb.len() / 10, "{inked} of {}", rgb.len());
        assert!(rgb.iter().any(|p| p == &[OVER.0, OVER.1, OVER.2]));
    }

    #[test]
    fn an_empty_table_says_so() {
        let data = PictureData {
            table: "Empty".to_string(),
            scope: "full table".to_string(),
            target_per_second: 2_000,
            ..PictureData::default()
        };
        let svg = svg(&data).unwrap();
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "The table is empty"), "{texts:?}");
        assert!(!texts.iter().any(|t| t.starts_with("target")));
        let scratch = Scratch::new("empty");
        let path = scratch.path("empty.png");
        write(&data, &path).unwrap();
        assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    }

    #[test]
    fn without_timestamps_the_picture_says_there_are_no_heat_strips() {
        let data = PictureData {
            heat: Vec::new(),
            ..realistic()
        };
        let texts = svg_texts(&svg(&data).unwrap());
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("No heat strips") && t.contains("Timestamp"))
        );
        assert!(!texts.iter().any(|t| t.starts_with("target")));
        assert!(texts.iter().any(|t| t == "Partitions by size"));
    }

    #[test]
    fn one_partition_and_a_single_write() {
        let data = PictureData {
            table: "t".to_string(),
            scope: "sample of 1 entities".to_string(),
            entities: 1,
            partitions: 1,
            largest: vec![("only".to_string(), 1)],
            others: (0, 0),
            heat: vec![HeatStrip {
                partition: "only".to_string(),
                per_second: vec![(1_700_000_000, 1)],
                peak_per_second: 1,
            }],
            target_per_second: 2_000,
        };
        let texts = svg_texts(&svg(&data).unwrap());
        assert!(texts.iter().any(|t| t == "only"));
        assert!(
            texts
                .iter()
                .any(|t| t == "The table's one partition is drawn.")
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("1 entity read") && t.contains("1 partition"))
        );
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("peak 1 write/s at 2023-11-14 22:13:20"))
        );
        assert!(texts.iter().any(|t| t.contains("never over the target")));
        let scratch = Scratch::new("one");
        write(&data, &scratch.path("one.png")).unwrap();
        assert!(
            std::fs::read(scratch.path("one.png"))
                .unwrap()
                .starts_with(b"\x89PNG")
        );
    }

    #[test]
    fn huge_counts_and_odd_keys_stay_well_formed() {
        let long = "ключ-".repeat(400);
        let data = PictureData {
            table: "odd\u{1}<table>".to_string(),
            scope: String::new(),
            entities: u64::MAX,
            partitions: u64::MAX,
            largest: vec![
                (long.clone(), u64::MAX / 2),
                ("\u{0}\u{202E}&amp;".to_string(), u64::MAX / 4),
                (String::new(), 3),
                ("zero".to_string(), 0),
            ],
            others: (u64::MAX, u64::MAX),
            heat: vec![
                HeatStrip {
                    partition: long,
                    per_second: vec![(i64::MIN, u64::MAX), (0, 5), (i64::MAX, 1)],
                    peak_per_second: u64::MAX,
                },
                HeatStrip::default(),
            ],
            target_per_second: 0,
        };
        let svg = svg(&data).unwrap();
        let texts = svg_texts(&svg);
        assert!(!svg.chars().any(|c| c.is_control() && c != '\n'));
        assert!(
            texts.iter().any(|t| t == "Table odd\\u{1}<table>"),
            "{texts:?}"
        );
        assert!(texts.iter().any(|t| t.contains("\\u{0}\\u{202e}&amp;")));
        assert!(texts.iter().any(|t| t.contains("(empty key)")));
        assert!(
            texts
                .iter()
                .any(|t| t.contains("ключ-ключ") && t.ends_with('…'))
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("18,446,744,073,709,551,615"))
        );
        // With no target of its own the picture draws the service's.
        assert!(texts.iter().any(|t| t == "target 2,000/s"));
        let scratch = Scratch::new("odd");
        write(&data, &scratch.path("odd.png")).unwrap();
        assert!(
            std::fs::read(scratch.path("odd.png"))
                .unwrap()
                .starts_with(b"\x89PNG")
        );
    }

    #[test]
    fn more_strips_than_drawn_are_counted() {
        let mut data = realistic();
        let strip = data.heat[0].clone();
        data.heat = vec![strip; 11];
        let texts = svg_texts(&svg(&data).unwrap());
        assert!(
            texts
                .iter()
                .any(|t| t.contains("the 8 hottest of 11 partitions"))
        );
        assert_eq!(texts.iter().filter(|t| t.starts_with("target")).count(), 8);
    }

    #[test]
    fn the_extension_picks_the_format() {
        let scratch = Scratch::new("extension");
        let path = scratch.path("UPPER.SVG");
        write(&realistic(), &path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
        for bad in ["picture.jpg", "picture", "picture.svg.txt"] {
            let err = write(&realistic(), &scratch.path(bad)).unwrap_err();
            assert!(err.contains("`.svg`") && err.contains("`.png`"), "{err}");
            assert!(!scratch.path(bad).exists());
        }
    }

    #[test]
    fn an_unwritable_path_is_an_error() {
        let scratch = Scratch::new("unwritable");
        let path = scratch.path("no-such-directory").join("picture.svg");
        let err = write(&realistic(), &path).unwrap_err();
        assert!(err.contains("cannot write the picture"), "{err}");
        assert!(err.contains("no-such-directory"), "{err}");
    }

    #[test]
    fn squarified_frames_tile_the_bounds_in_proportion() {
        let weights = [500.0, 250.0, 120.0, 80.0, 30.0, 15.0, 4.0, 1.0];
        let bounds = Frame {
            x: 10.0,
            y: 20.0,
            w: 600.0,
            h: 300.0,
        };
        let frames = squarify(&weights, bounds);
        assert_eq!(frames.len(), weights.len());
        let total: f64 = weights.iter().sum();
        for (w, f) in weights.iter().zip(&frames) {
            let expected = w / total * bounds.w * bounds.h;
            assert!(
                (f.w * f.h - expected).abs() < 1e-6 * expected.max(1.0),
                "{f:?}"
            );
            assert!(f.x >= bounds.x - 1e-9 && f.x + f.w <= bounds.x + bounds.w + 1e-6);
            assert!(f.y >= bounds.y - 1e-9 && f.y + f.h <= bounds.y + bounds.h + 1e-6);
        }
        // No two frames overlap.
        for (i, a) in frames.iter().enumerate() {
            for b in &frames[i + 1..] {
                let overlap_w = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
                let overlap_h = (a.y + a.h).min(b.y + b.h) - a.y.max(b.y);
                assert!(overlap_w <= 1e-6 || overlap_h <= 1e-6, "{a:?} {b:?}");
            }
        }
        // The largest frame is far from a sliver.
        let f = frames[0];
        assert!(f.w.max(f.h) / f.w.min(f.h) < 3.0, "{f:?}");
        assert!(squarify(&[0.0, 0.0], bounds).iter().all(|f| f.w == 0.0));
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(123), "123");
        assert_eq!(compact(2_000.0), "2k");
        assert_eq!(compact(1_500.0), "1.5k");
        assert_eq!(compact(12_000_000.0), "12M");
        assert_eq!(compact(u64::MAX as f64), "18.4E");
        assert_eq!(share(1, 3), "33%");
        assert_eq!(share(1, 100_000), "<0.1%");
        assert_eq!(duration(30), "30 seconds");
        assert_eq!(duration(300), "5 minutes");
        assert_eq!(utc(0), "1970-01-01 00:00:00");
    }
}
