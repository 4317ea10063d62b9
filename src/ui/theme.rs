//! Themes: the style of everything on screen, built in or read from a file.
//!
//! A theme gives each thing on screen a style, and says whether the terminal
//! can show Unicode. The glyphs themselves differ by state (a last move is
//! bracketed, a dead stone is lower case, a low clock has `!`), so a
//! monochrome theme loses no meaning.
//!
//! Themes are TOML files. The built-in ones (`themes/*.toml`, embedded) are
//! `default`, `light`, `high-contrast` and `mono`; `--theme` takes one of
//! these names or the path of a file of the same form:
//!
//! ```toml
//! name = "mine"
//! unicode = true          # false draws the board in ASCII
//! background = "dark"     # or "light": the terminal's, for contrast checks
//! black_stone = { fg = "black", bg = "yellow", modifiers = ["bold"] }
//! [chart_wire]
//! fg = "#ff8800"          # a name, "#rrggbb", or an index 0..255
//! ```
//!
//! Every key is optional; a style the file leaves out is the default
//! theme's, and a style it gives replaces that style whole (`text = {}` is
//! the terminal's own colours). Unknown keys, colours and modifiers are
//! errors that name the file, the key, and the line and column.
//!
//! [`Theme::choose`] picks the theme for a screen: the one asked for, else
//! `mono` when `NO_COLOR` is set (an explicit theme wins over `NO_COLOR`, as
//! no-color.org asks of command-line flags), else `default`; and an ASCII
//! board when the locale is not UTF-8.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

mod file;

use file::StyleSpec;

/// The built-in themes' names.
pub(crate) const BUILTIN_NAMES: &[&str] = &["default", "light", "high-contrast", "mono"];

/// A built-in theme's file.
fn builtin_text(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => include_str!("../../themes/default.toml"),
        "light" => include_str!("../../themes/light.toml"),
        "high-contrast" => include_str!("../../themes/high-contrast.toml"),
        "mono" => include_str!("../../themes/mono.toml"),
        _ => return None,
    })
}

/// Where a package installs themes: `share/goref/themes` beside the
/// binary's `bin` (`/usr/share/goref/themes` for `/usr/bin/goref`, and the
/// same in a scratch root), then `/usr/share/goref/themes`.
pub(crate) fn installed_theme_folders() -> Vec<PathBuf> {
    let beside = std::env::current_exe().ok().and_then(|exe| {
        let prefix = exe.parent()?.parent()?;
        Some(prefix.join("share/goref/themes"))
    });
    let mut folders: Vec<PathBuf> = beside.into_iter().collect();
    let system = PathBuf::from("/usr/share/goref/themes");
    if !folders.contains(&system) {
        folders.push(system);
    }
    folders
}

/// The file of the installed theme called `name` (`NAME.toml` in one of
/// [`installed_theme_folders`]), if there is one.
fn installed_theme(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains(['/', '.']) {
        return None;
    }
    installed_theme_folders()
        .into_iter()
        .map(|folder| folder.join(format!("{name}.toml")))
        .find(|path| path.is_file())
}

/// The colour of the terminal's background a theme is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Background {
    #[default]
    Dark,
    Light,
}

/// Declares [`Theme`] with one `Style` field per styled thing, and the
/// theme file with one optional style per field, from one list.
macro_rules! theme {
    ($($(#[$doc:meta])* $field:ident,)*) => {
        /// The style of each thing on screen, and whether the board is drawn
        /// in Unicode.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            pub name: String,
            /// The terminal shows Unicode; otherwise the board is drawn in ASCII.
            pub unicode: bool,
            /// The terminal background the colours were chosen for.
            pub background: Background,
            $($(#[$doc])* pub $field: Style,)*
        }

        impl Theme {
            /// Every style, by its key in a theme file.
            #[cfg(test)]
            pub(crate) fn styles(&self) -> Vec<(&'static str, Style)> {
                vec![$((stringify!($field), self.$field),)*]
            }

            /// No colours, no attributes: what a theme file is laid over.
            fn blank() -> Theme {
                Theme {
                    name: String::new(),
                    unicode: true,
                    background: Background::Dark,
                    $($field: Style::new(),)*
                }
            }
        }

        /// A theme file: every key optional.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ThemeFile {
            name: Option<String>,
            unicode: Option<bool>,
            background: Option<Background>,
            $($field: Option<StyleSpec>,)*
        }

        impl ThemeFile {
            /// Sets on `theme` every style the file gives.
            fn apply_styles(&self, theme: &mut Theme, text: &str) -> Result<(), String> {
                $(if let Some(spec) = &self.$field {
                    theme.$field = spec.style(stringify!($field), text)?;
                })*
                Ok(())
            }
        }
    };
}

theme! {
    // The board.
    black_stone,
    white_stone,
    grid,
    hoshi,
    coordinates,
    last_move,
    dead,
    disputed,
    /// The operator's cursor on the board while marking dead stones.
    cursor,

    // Text and frames.
    text,
    /// Secondary text: times, hints' descriptions, empty states.
    dim,
    /// A pane's title row.
    title,
    /// The title row of the pane that has the focus.
    title_focused,
    /// The status line at the top.
    status,
    /// A key in the hint bar or the help.
    key,
    /// The selected row of a list (the trace).
    selected,

    // Clocks.
    to_move,
    low_time,
    flagged,

    // The trace.
    packet_in,
    packet_out,
    gtp_sent,
    gtp_received,
    stderr,
    /// Errors, resends, duplicates, bad checksums.
    problem,

    // Alerts and notices.
    alert,
    notice,

    // The time chart.
    chart_think,
    chart_wire,
    chart_referee,
    /// A resend or a time-out on a move's bar.
    chart_mark,
}

#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error(
        "no built-in, installed or file theme called {requested}: the built-in themes are {}",
        Theme::builtin_names().join(", ")
    )]
    NotFound { requested: String },
    #[error("cannot read the theme file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the theme {origin} is not valid: {message}")]
    Invalid { origin: String, message: String },
}

/// What the terminal can show, as the process's environment tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Environment {
    /// `NO_COLOR` is set and not empty.
    pub no_color: bool,
    /// The locale's character set is UTF-8.
    pub unicode: bool,
}

impl Environment {
    pub(crate) fn from_process() -> Environment {
        Environment::from_vars(|name| std::env::var_os(name))
    }

    /// Reads `NO_COLOR`, and the first of `LC_ALL`, `LC_CTYPE` and `LANG`
    /// that is set and not empty (the one that decides the character set);
    /// with none, the locale is `C`, which is not UTF-8.
    pub(crate) fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Environment {
        let set = |name: &str| var(name).filter(|value| !value.is_empty());
        let unicode = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .find_map(|name| set(name))
            .is_some_and(|locale| {
                let locale = locale.to_string_lossy().to_ascii_lowercase();
                locale.contains("utf-8") || locale.contains("utf8")
            });
        Environment {
            no_color: set("NO_COLOR").is_some(),
            unicode,
        }
    }
}

impl Theme {
    /// The default: colours on a dark terminal, Unicode stones.
    pub(crate) fn default_dark() -> Theme {
        Theme::builtin("default").expect("the built-in themes parse")
    }

    /// No colour at all (`NO_COLOR`): attributes only, ASCII stones.
    pub(crate) fn mono() -> Theme {
        Theme::builtin("mono").expect("the built-in themes parse")
    }

    pub(crate) fn builtin_names() -> &'static [&'static str] {
        BUILTIN_NAMES
    }

    /// A built-in theme by name. The default theme is laid over a blank one,
    /// the others over the default.
    pub(crate) fn builtin(name: &str) -> Option<Theme> {
        let text = builtin_text(name)?;
        let base = if name == "default" {
            Theme::blank()
        } else {
            Theme::default_dark()
        };
        let theme = Theme::parse(base, text, name);
        Some(theme.unwrap_or_else(|e| panic!("the built-in theme {name} is broken: {e}")))
    }

    /// A built-in theme's name, the path of a theme file, or the name of
    /// an installed one (`NAME.toml` in `installed_theme_folders`).
    pub fn load(name_or_path: &str) -> Result<Theme, ThemeError> {
        if let Some(theme) = Theme::builtin(name_or_path) {
            return Ok(theme);
        }
        let path = match std::path::Path::new(name_or_path).exists() {
            true => None,
            false => installed_theme(name_or_path),
        };
        let name_or_path = path
            .as_deref()
            .and_then(|path| path.to_str())
            .unwrap_or(name_or_path);
        let text = crate::files::read_text(Path::new(name_or_path), crate::files::SETTINGS_MAX)
            .map_err(|source| {
                if source.kind() == std::io::ErrorKind::NotFound {
                    ThemeError::NotFound {
                        requested: name_or_path.to_string(),
                    }
                } else {
                    ThemeError::Read {
                        path: name_or_path.into(),
                        source,
                    }
                }
            })?;
        Theme::from_toml(&text, name_or_path)
    }

    /// A theme file's text laid over the default theme; `origin` (a path or
    /// a name) names the theme in errors and when the file has no `name`.
    pub(crate) fn from_toml(text: &str, origin: &str) -> Result<Theme, ThemeError> {
        Theme::parse(Theme::default_dark(), text, origin)
    }

    /// The theme for a screen: the one `requested`, else `mono` under
    /// `NO_COLOR`, else the default; in ASCII when the terminal has no
    /// Unicode.
    pub fn choose(requested: Option<&str>, env: &Environment) -> Result<Theme, ThemeError> {
        let mut theme = match requested {
            Some(name_or_path) => Theme::load(name_or_path)?,
            None if env.no_color => Theme::mono(),
            None => Theme::default_dark(),
        };
        theme.unicode &= env.unicode;
        Ok(theme)
    }

    fn parse(mut theme: Theme, text: &str, origin: &str) -> Result<Theme, ThemeError> {
        let invalid = |message: String| ThemeError::Invalid {
            origin: origin.to_string(),
            message,
        };
        let file: ThemeFile =
            toml::from_str(text).map_err(|e| invalid(crate::toml_errors::locate(text, &e)))?;
        file.apply_styles(&mut theme, text).map_err(invalid)?;
        theme.name = file.name.clone().unwrap_or_else(|| origin.to_string());
        theme.unicode = file.unicode.unwrap_or(theme.unicode);
        theme.background = file.background.unwrap_or(theme.background);
        Ok(theme)
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::default_dark()
    }
}

/// The colour names a theme file may use.
pub(crate) const COLOR_NAMES: &[(&str, Color)] = &[
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("dark_gray", Color::DarkGray),
    ("light_red", Color::LightRed),
    ("light_green", Color::LightGreen),
    ("light_yellow", Color::LightYellow),
    ("light_blue", Color::LightBlue),
    ("light_magenta", Color::LightMagenta),
    ("light_cyan", Color::LightCyan),
    ("white", Color::White),
];

/// The modifier names a theme file may use.
pub(crate) const MODIFIER_NAMES: &[(&str, Modifier)] = &[
    ("bold", Modifier::BOLD),
    ("dim", Modifier::DIM),
    ("italic", Modifier::ITALIC),
    ("underlined", Modifier::UNDERLINED),
    ("reversed", Modifier::REVERSED),
    ("crossed_out", Modifier::CROSSED_OUT),
];

#[cfg(test)]
mod tests;

#[cfg(test)]
mod contrast_tests;
