//! Theme files: the built-in ones parse and the default and mono ones are
//! the themes goref had in code; user files inherit, and their errors name
//! the key and the place; the choice under `NO_COLOR` and without Unicode;
//! and the contrast of every built-in theme's colours.

use std::ffi::OsString;

use ratatui::style::{Color, Modifier, Style};

use super::{Background, Environment, Theme, ThemeError};

/// The default theme as it was written in code before theme files.
fn default_in_code() -> Theme {
    let board = |fg: Color| Style::new().fg(fg).bg(Color::Yellow);
    Theme {
        name: "default".into(),
        unicode: true,
        background: Background::Dark,
        black_stone: board(Color::Black),
        white_stone: board(Color::Black),
        grid: board(Color::Black),
        hoshi: board(Color::Black),
        coordinates: Style::new().fg(Color::Gray),
        last_move: board(Color::Red),
        dead: board(Color::Black).add_modifier(Modifier::CROSSED_OUT),
        disputed: board(Color::Blue).add_modifier(Modifier::BOLD),
        cursor: Style::new()
            .fg(Color::Black)
            .bg(Color::Cyan)
            .add_modifier(Modifier::BOLD),
        text: Style::new(),
        dim: Style::new().fg(Color::Gray),
        title: Style::new()
            .fg(Color::Gray)
            .add_modifier(Modifier::UNDERLINED),
        title_focused: Style::new()
            .fg(Color::Cyan)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        status: Style::new().add_modifier(Modifier::REVERSED),
        key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        selected: Style::new().add_modifier(Modifier::REVERSED),
        to_move: Style::new().add_modifier(Modifier::BOLD),
        low_time: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        flagged: Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD | Modifier::REVERSED),
        packet_in: Style::new().fg(Color::Green),
        packet_out: Style::new().fg(Color::Cyan),
        gtp_sent: Style::new().fg(Color::Cyan),
        gtp_received: Style::new().fg(Color::Green),
        stderr: Style::new().fg(Color::Gray),
        problem: Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        alert: Style::new()
            .fg(Color::White)
            .bg(Color::Red)
            .add_modifier(Modifier::BOLD),
        notice: Style::new().fg(Color::Yellow),
        chart_think: Style::new().fg(Color::Cyan),
        chart_wire: Style::new().fg(Color::Magenta),
        chart_referee: Style::new().fg(Color::Yellow),
        chart_mark: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
    }
}

/// The mono theme as it was written in code before theme files.
fn mono_in_code() -> Theme {
    let plain = Style::new();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let reversed = Style::new().add_modifier(Modifier::REVERSED);
    Theme {
        name: "mono".into(),
        unicode: false,
        background: Background::Dark,
        black_stone: bold,
        white_stone: plain,
        grid: plain,
        hoshi: plain,
        coordinates: plain,
        last_move: bold,
        dead: plain,
        disputed: bold,
        cursor: reversed,
        text: plain,
        dim: plain,
        title: Style::new().add_modifier(Modifier::UNDERLINED),
        title_focused: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        status: reversed,
        key: bold,
        selected: reversed,
        to_move: bold,
        low_time: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        flagged: reversed.add_modifier(Modifier::BOLD),
        packet_in: plain,
        packet_out: plain,
        gtp_sent: plain,
        gtp_received: plain,
        stderr: plain,
        problem: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        alert: reversed.add_modifier(Modifier::BOLD),
        notice: bold,
        chart_think: plain,
        chart_wire: plain,
        chart_referee: plain,
        chart_mark: bold,
    }
}

fn invalid(text: &str) -> String {
    let error = Theme::from_toml(text, "mine.toml").unwrap_err();
    assert!(matches!(error, ThemeError::Invalid { .. }), "{error:?}");
    let message = error.to_string();
    assert!(!message.contains('\n'), "one line: {message}");
    message
}

#[test]
fn every_built_in_theme_parses_under_its_own_name() {
    for name in Theme::builtin_names() {
        let theme = Theme::builtin(name).unwrap();
        assert_eq!(theme.name, *name);
        assert_eq!(Theme::load(name).unwrap(), theme);
    }
    assert!(Theme::builtin("solarized").is_none());
}

#[test]
fn the_default_and_mono_files_are_the_themes_that_were_in_code() {
    assert_eq!(Theme::default_dark(), default_in_code());
    assert_eq!(Theme::default(), default_in_code());
    assert_eq!(Theme::mono(), mono_in_code());
}

#[test]
fn every_built_in_file_sets_every_style_and_says_its_background() {
    for name in Theme::builtin_names() {
        let text = super::builtin_text(name).unwrap();
        for (key, _) in Theme::default().styles() {
            let set = text
                .lines()
                .any(|line| line.starts_with(&format!("{key} = ")));
            assert!(set, "{name} does not set {key}");
        }
        assert!(text.contains("\nbackground = "), "{name}");
    }
}

#[test]
fn a_short_user_file_takes_the_rest_from_the_default() {
    let text = "unicode = false\n[black_stone]\nfg = \"#102030\"\nmodifiers = [\"bold\"]\n\
                \n[chart_wire]\nbg = 208\n";
    let theme = Theme::from_toml(text, "themes/mine.toml").unwrap();
    let expected = Theme {
        name: "themes/mine.toml".into(),
        unicode: false,
        black_stone: Style::new()
            .fg(Color::Rgb(0x10, 0x20, 0x30))
            .add_modifier(Modifier::BOLD),
        chart_wire: Style::new().bg(Color::Indexed(208)),
        ..Theme::default()
    };
    assert_eq!(theme, expected);
    let named = Theme::from_toml("name = \"mine\"\nbackground = \"light\"", "x").unwrap();
    assert_eq!(
        (named.name.as_str(), named.background),
        ("mine", Background::Light)
    );
}

#[test]
fn a_bad_colour_names_the_key_and_where_it_is() {
    let message = invalid("name = \"mine\"\n[black_stone]\nfg = \"purple\"\n");
    assert!(
        message.starts_with(
            "the theme mine.toml is not valid: line 3, column 6, key black_stone.fg: \
             unknown colour `purple`; the colours are black, red,"
        ),
        "{message}"
    );
    let message = invalid("grid = { bg = 300 }");
    assert!(
        message.ends_with("line 1, column 15, key grid.bg: colour index 300 is not from 0 to 255"),
        "{message}"
    );
    let message = invalid("grid = { bg = \"#12345\" }");
    assert!(
        message.contains("key grid.bg: unknown colour `#12345`"),
        "{message}"
    );
}

#[test]
fn a_bad_modifier_names_the_key_and_where_it_is() {
    let message = invalid("dim = { modifiers = [\"bold\", \"blink\"] }");
    assert_eq!(
        message,
        "the theme mine.toml is not valid: line 1, column 30, key dim.modifiers: unknown \
         modifier `blink`; the modifiers are bold, dim, italic, underlined, reversed, crossed_out"
    );
}

#[test]
fn an_unknown_key_names_the_key_and_where_it_is() {
    let message = invalid("name = \"mine\"\nblak_stone = { fg = \"black\" }\n");
    assert!(
        message.starts_with(
            "the theme mine.toml is not valid: line 2, column 1, key blak_stone: \
             unknown field `blak_stone`, expected one of `name`, `unicode`, `background`, \
             `black_stone`"
        ),
        "{message}"
    );
    let message = invalid("[grid]\ncolour = \"red\"\n");
    assert!(
        message.contains("line 2, column 1, key grid.colour: unknown field `colour`"),
        "{message}"
    );
    let message = invalid("background = \"grey\"");
    assert!(
        message.contains("line 1, column 14, key background: unknown variant `grey`"),
        "{message}"
    );
}

#[test]
fn a_syntax_error_gives_its_line_and_column_on_one_line() {
    let message = invalid("name = \"mine\"\n[grid]\nfg = red\n");
    assert!(
        message.starts_with("the theme mine.toml is not valid: line 3, column 6, key grid.fg: "),
        "{message}"
    );
}

#[test]
fn a_name_that_is_neither_built_in_nor_a_file_lists_the_built_in_themes() {
    let error = Theme::load("no/such/theme.toml").unwrap_err();
    assert_eq!(
        error.to_string(),
        "no built-in, installed or file theme called no/such/theme.toml: \
         the built-in themes are default, light, high-contrast, mono"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, "name = \"mine\"\ntext = { fg = \"white\" }\n").unwrap();
    let theme = Theme::load(path.to_str().unwrap()).unwrap();
    assert_eq!(
        (theme.name.as_str(), theme.text),
        ("mine", Style::new().fg(Color::White))
    );
}

fn env(vars: &[(&str, &str)]) -> Environment {
    let vars: Vec<(String, OsString)> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), OsString::from(v)))
        .collect();
    Environment::from_vars(|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
}

#[test]
fn the_locale_that_decides_the_character_set_says_whether_there_is_unicode() {
    assert!(env(&[("LANG", "en_GB.UTF-8")]).unicode);
    assert!(env(&[("LC_CTYPE", "de_DE.utf8"), ("LANG", "C")]).unicode);
    assert!(!env(&[("LC_ALL", "C"), ("LANG", "en_GB.UTF-8")]).unicode);
    assert!(env(&[("LC_ALL", ""), ("LANG", "en_GB.Utf-8")]).unicode);
    assert!(!env(&[("LANG", "en_US.ISO-8859-1")]).unicode);
    assert!(!env(&[]).unicode);
    assert!(env(&[("NO_COLOR", "1")]).no_color);
    assert!(!env(&[("NO_COLOR", "")]).no_color);
}

#[test]
fn no_color_chooses_mono_unless_a_theme_is_asked_for() {
    let utf8 = Environment {
        no_color: false,
        unicode: true,
    };
    let no_color = Environment {
        no_color: true,
        ..utf8
    };
    assert_eq!(Theme::choose(None, &utf8).unwrap(), Theme::default());
    let mono = Theme::choose(None, &no_color).unwrap();
    assert_eq!(mono, Theme::mono());
    assert_eq!(
        Theme::choose(Some("light"), &no_color).unwrap(),
        Theme::builtin("light").unwrap()
    );
    assert!(matches!(
        Theme::choose(Some("nope"), &utf8),
        Err(ThemeError::NotFound { .. })
    ));
}

#[test]
fn without_unicode_the_chosen_theme_draws_in_ascii() {
    let ascii = Environment {
        no_color: false,
        unicode: false,
    };
    let theme = Theme::choose(None, &ascii).unwrap();
    assert!(!theme.unicode);
    assert_eq!(
        Theme {
            unicode: true,
            ..theme
        },
        Theme::default()
    );
    assert!(
        !Theme::choose(Some("high-contrast"), &ascii)
            .unwrap()
            .unicode
    );
}
