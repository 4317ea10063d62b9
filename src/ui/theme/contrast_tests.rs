//! The contrast of every built-in theme's colours, by WCAG 2: at least 4.5
//! for text, and 3 for the board's stones and marks and the time chart's
//! bars and marks (graphics, WCAG's non-text contrast). Colours are xterm's
//! default palette; a style without a background is on the theme's declared
//! one (black or white), and without a foreground in the terminal's own
//! (white or black). Every built-in theme passes.

use ratatui::style::{Color, Style};

use super::{Background, Theme};

/// Styles drawn as graphics rather than read as text.
const GRAPHICS: &[&str] = &[
    "black_stone",
    "white_stone",
    "grid",
    "hoshi",
    "last_move",
    "dead",
    "disputed",
    "cursor",
    "chart_think",
    "chart_wire",
    "chart_referee",
    "chart_mark",
];

/// xterm's default RGB for the 16 ANSI colours.
fn xterm(color: Color) -> [u8; 3] {
    match color {
        Color::Black => [0x00, 0x00, 0x00],
        Color::Red => [0xcd, 0x00, 0x00],
        Color::Green => [0x00, 0xcd, 0x00],
        Color::Yellow => [0xcd, 0xcd, 0x00],
        Color::Blue => [0x00, 0x00, 0xee],
        Color::Magenta => [0xcd, 0x00, 0xcd],
        Color::Cyan => [0x00, 0xcd, 0xcd],
        Color::Gray => [0xe5, 0xe5, 0xe5],
        Color::DarkGray => [0x7f, 0x7f, 0x7f],
        Color::LightRed => [0xff, 0x00, 0x00],
        Color::LightGreen => [0x00, 0xff, 0x00],
        Color::LightYellow => [0xff, 0xff, 0x00],
        Color::LightBlue => [0x5c, 0x5c, 0xff],
        Color::LightMagenta => [0xff, 0x00, 0xff],
        Color::LightCyan => [0x00, 0xff, 0xff],
        Color::White => [0xff, 0xff, 0xff],
        other => panic!("built-in themes use named colours only, not {other:?}"),
    }
}

/// WCAG 2 relative luminance.
fn luminance(color: Color) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let [r, g, b] = xterm(color);
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

fn ratio(a: Color, b: Color) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// The style's contrast on the theme's background; `None` when it sets
/// no colour.
fn contrast(theme: &Theme, style: Style) -> Option<f64> {
    let (ground, ink) = match theme.background {
        Background::Dark => (Color::Black, Color::White),
        Background::Light => (Color::White, Color::Black),
    };
    if style.fg.is_none() && style.bg.is_none() {
        return None;
    }
    Some(ratio(style.fg.unwrap_or(ink), style.bg.unwrap_or(ground)))
}

/// Every style under its bar, as `theme style ratio < bar`.
fn below_the_bar(theme: &Theme) -> Vec<String> {
    let mut below = Vec::new();
    for (key, style) in theme.styles() {
        let bar = if GRAPHICS.contains(&key) { 3.0 } else { 4.5 };
        match contrast(theme, style) {
            Some(ratio) if ratio < bar => {
                below.push(format!("{} {key} {ratio:.2} < {bar}", theme.name));
            }
            _ => {}
        }
    }
    below
}

fn lowest(theme: &Theme) -> f64 {
    theme
        .styles()
        .into_iter()
        .filter_map(|(_, style)| contrast(theme, style))
        .fold(21.0, f64::min)
}

#[test]
fn the_ratios_are_wcags() {
    assert!((ratio(Color::Black, Color::White) - 21.0).abs() < 1e-9);
    assert!((ratio(Color::Red, Color::Red) - 1.0).abs() < 1e-9);
    let on_black = ratio(Color::DarkGray, Color::Black);
    assert!((on_black - 5.24).abs() < 0.01, "{on_black}");
}

#[test]
fn every_built_in_theme_but_the_default_is_legible_on_its_background() {
    for name in Theme::builtin_names() {
        let theme = Theme::builtin(name).unwrap();
        assert_eq!(below_the_bar(&theme), Vec::<String>::new());
    }
}

#[test]
fn the_lowest_ratios_are_known() {
    let lowest = |name: &str| format!("{:.2}", lowest(&Theme::builtin(name).unwrap()));
    assert_eq!(lowest("default"), "3.43");
    assert_eq!(lowest("light"), "3.73");
    assert_eq!(lowest("high-contrast"), "5.84");
    assert_eq!(lowest("mono"), "21.00");
}

/// xterm's dark gray (#7f7f7f) is 5.24 on black, above the bar for text;
/// darker palettes' (the Linux console's #555555, 2.8) would not be.
#[test]
fn dark_gray_passes_on_black_and_fails_on_the_yellow_board() {
    let text = "name = \"t\"\ndim = { fg = \"dark_gray\" }\ngrid = { fg = \"dark_gray\", bg = \"yellow\" }\n";
    let theme = Theme::from_toml(text, "t").unwrap();
    assert_eq!(
        format!("{:.2}", contrast(&theme, theme.dim).unwrap()),
        "5.24"
    );
    assert!(below_the_bar(&theme).contains(&"t grid 2.35 < 3".to_string()));
    assert!(!below_the_bar(&theme)
        .iter()
        .any(|line| line.contains("dim")));
}
