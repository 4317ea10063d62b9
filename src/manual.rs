//! `goref man` and `goref completions SHELL`: the manual page and the
//! shells' completion scripts, generated from the command line's own
//! definition ([`crate::cli::Cli`]), so that they never drift from the
//! flags.

use clap::CommandFactory;

use crate::cli::Cli;

/// The completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "goref", &mut script);
    script
}

/// The manual page goref(1), in roff: the command's own sections, then a
/// section for each command with its synopsis, description and options.
pub(crate) fn man_page() -> Vec<u8> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let man = clap_mangen::Man::new(command.clone()).manual("goref manual");
    let mut page = Vec::new();
    let rendered = man
        .render_title(&mut page)
        .and_then(|()| man.render_name_section(&mut page))
        .and_then(|()| man.render_synopsis_section(&mut page))
        .and_then(|()| man.render_description_section(&mut page))
        .and_then(|()| man.render_options_section(&mut page));
    rendered.expect("roff renders into memory");
    let commands: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .collect();
    page.extend(b".SH COMMANDS\n");
    for sub in &commands {
        let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
        let line = format!(
            ".TP\n\\fBgoref {}\\fR\n{}\n",
            sub.get_name(),
            escape(&about)
        );
        page.extend(line.bytes());
    }
    for sub in commands {
        page.extend(command_section(sub).bytes());
    }
    man.render_version_section(&mut page)
        .expect("roff renders into memory");
    page
}

/// One command's section: `goref NAME`, its synopsis, what it does, and
/// its options as a subsection.
fn command_section(sub: &clap::Command) -> String {
    let man = clap_mangen::Man::new(sub.clone());
    let mut part = Vec::new();
    man.render_synopsis_section(&mut part)
        .and_then(|()| man.render_description_section(&mut part))
        .and_then(|()| man.render_options_section(&mut part))
        .expect("roff renders into memory");
    let heading = format!(".SH \"GOREF {}\"", sub.get_name().to_uppercase());
    String::from_utf8_lossy(&part)
        .replacen(".SH SYNOPSIS", &heading, 1)
        .replacen(".SH DESCRIPTION", ".PP", 1)
        .replace(".SH OPTIONS", ".SS Options")
}

/// Text as roff takes it: a line of its own that starts with no control
/// character, its hyphens and backslashes escaped.
fn escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.starts_with(['.', '\'']) {
        true => format!("\\&{escaped}"),
        false => escaped,
    }
}
