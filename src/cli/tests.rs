//! The tests of `cli`.

use super::*;
use clap::CommandFactory;

fn parse(args: &[&str]) -> Cli {
    Cli::try_parse_from(args).unwrap()
}

#[test]
fn watch_flags_need_watch_and_serve_flags_need_serve() {
    let watch = parse(&[
        "goref",
        "--watch",
        "venue:7777",
        "--token",
        "s3cret",
        "--headless",
        "--json",
    ]);
    assert_eq!(watch.watch.as_deref(), Some("venue:7777"));
    assert_eq!(watch.watching.token.as_deref(), Some("s3cret"));
    assert!(watch.watching.headless && watch.watching.json);
    for args in [
        &["goref", "--headless"][..],
        &["goref", "--token", "t"],
        &["goref", "--watch", "h:1", "--json"],
    ] {
        assert!(Cli::try_parse_from(args).is_err(), "{args:?}");
    }
    let play = parse(&["goref", "play", "--serve", "0.0.0.0:7000", "--token", "t"]);
    let Some(Command::Play(play)) = play.command else {
        panic!("not play");
    };
    assert_eq!(play.spectators.serve.as_deref(), Some("0.0.0.0:7000"));
    assert_eq!(play.spectators.max_spectators, 1000);
    let demo = parse(&[
        "goref",
        "demo",
        "--serve",
        "127.0.0.1:0",
        "--max-spectators",
        "5",
    ]);
    let Some(Command::Demo(demo)) = demo.command else {
        panic!("not demo");
    };
    assert_eq!(demo.spectators.max_spectators, 5);
}

#[test]
fn help_names_every_player_kind() {
    let mut command = Cli::command();
    command.build();
    let help = |command: &clap::Command, arg: &str| {
        let arg = command
            .get_arguments()
            .find(|a| a.get_id() == arg)
            .unwrap_or_else(|| panic!("no --{arg}"));
        arg.get_help().map(ToString::to_string).unwrap_or_default()
    };
    assert!(help(&command, "watch").contains("read-only"));
    let play = command.find_subcommand("play").unwrap();
    for colour in ["black", "white"] {
        let text = help(play, colour);
        for kind in [
            "gtp:CMDLINE",
            "sgmp:DEVICE[,opts]",
            "gmp:DEVICE[,opts]",
            "sgmp-tcp:HOST:PORT",
            "gmp-tcp:HOST:PORT",
            "human[:NAME]",
            "bot[:SEED]",
            "bot-sgmp[:SEED]",
            "bot-gmp[:SEED]",
        ] {
            assert!(text.contains(kind), "--{colour} help lacks {kind}: {text}");
        }
    }
}
