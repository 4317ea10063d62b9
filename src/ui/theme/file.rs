//! One style of a theme file (`{ fg, bg, modifiers }`) and the one-line
//! messages for what is wrong in a theme file, with line, column and key.

use std::ops::Range;

use ratatui::style::{Color, Style};
use serde::Deserialize;
use toml::Spanned;

use super::{COLOR_NAMES, MODIFIER_NAMES};

/// A style as written: colours by name, `#rrggbb` or index, and modifiers
/// by name, each with where it was written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StyleSpec {
    fg: Option<Spanned<toml::Value>>,
    bg: Option<Spanned<toml::Value>>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

impl StyleSpec {
    /// The style; an unknown colour or modifier is a one-line message that
    /// names `key`.
    pub(super) fn style(&self, key: &str, text: &str) -> Result<Style, String> {
        let color = |value: &Spanned<toml::Value>, part: &str| {
            color(value.get_ref()).map_err(|e| at(text, value.span(), &format!("{key}.{part}"), &e))
        };
        let mut style = Style::new();
        if let Some(fg) = &self.fg {
            style = style.fg(color(fg, "fg")?);
        }
        if let Some(bg) = &self.bg {
            style = style.bg(color(bg, "bg")?);
        }
        for name in &self.modifiers {
            let Some((_, modifier)) = MODIFIER_NAMES.iter().find(|(n, _)| n == name.get_ref())
            else {
                let known: Vec<&str> = MODIFIER_NAMES.iter().map(|(n, _)| *n).collect();
                let message = format!(
                    "unknown modifier `{}`; the modifiers are {}",
                    name.get_ref(),
                    known.join(", ")
                );
                return Err(at(text, name.span(), &format!("{key}.modifiers"), &message));
            };
            style = style.add_modifier(*modifier);
        }
        Ok(style)
    }
}

fn color(value: &toml::Value) -> Result<Color, String> {
    let known = || {
        let names: Vec<&str> = COLOR_NAMES.iter().map(|(n, _)| *n).collect();
        format!(
            "the colours are {}, \"#rrggbb\" and 0 to 255",
            names.join(", ")
        )
    };
    match value {
        toml::Value::String(name) => {
            if let Some((_, color)) = COLOR_NAMES.iter().find(|(n, _)| n == name) {
                return Ok(*color);
            }
            rgb(name).ok_or_else(|| format!("unknown colour `{name}`; {}", known()))
        }
        toml::Value::Integer(index) => match u8::try_from(*index) {
            Ok(index) => Ok(Color::Indexed(index)),
            Err(_) => Err(format!("colour index {index} is not from 0 to 255")),
        },
        other => Err(format!(
            "a colour is a string or a number, not {other}; {}",
            known()
        )),
    }
}

/// `#rrggbb`.
fn rgb(text: &str) -> Option<Color> {
    let hex = text.strip_prefix('#').filter(|hex| hex.len() == 6)?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some(Color::Rgb(byte(0)?, byte(2)?, byte(4)?))
}

/// `line 3, column 8, key black_stone.fg: message`.
fn at(text: &str, span: Range<usize>, key: &str, message: &str) -> String {
    let (line, column) = crate::toml_errors::position(text, span.start);
    format!("line {line}, column {column}, key {key}: {message}")
}
