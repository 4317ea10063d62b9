//! Tests of the command registry and the key map: the defaults are sound,
//! availability follows the role and the phase, chords, and key map files.

use super::*;

fn context(role: Role, phase: Phase) -> Context {
    Context {
        role,
        phase,
        over: false,
        focus: PaneId::Board,
        typed_to_move: None,
        clocks_paused: false,
        alerting: false,
        closable: false,
        can_start_next: false,
    }
}

fn key(name: &str) -> Key {
    name.parse().unwrap()
}

#[test]
fn every_command_has_one_row_a_unique_name_and_keys() {
    let mut names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), REGISTRY.len(), "names are unique");
    for info in REGISTRY {
        assert_eq!(info.command.info().name, info.name);
        assert!(!info.keys.is_empty(), "{} has a key", info.name);
        assert!(!info.description.is_empty());
    }
}

#[test]
fn a_spectator_has_no_operator_commands_at_all() {
    let map = KeyMap::default();
    let mut ctx = context(Role::Spectator, Phase::Adjudication);
    for info in REGISTRY {
        if matches!(info.group, Group::Operator | Group::Scoring) {
            assert!(!info.command.available(&ctx), "{}", info.name);
        }
    }
    assert_eq!(map.lookup(&[key("v")], &ctx), Lookup::None);
    assert_eq!(
        map.lookup(&[key("r")], &ctx),
        Lookup::None,
        "no chord starts"
    );
    ctx.role = Role::Operator;
    assert_eq!(
        map.lookup(&[key("v")], &ctx),
        Lookup::Command(Command::Void)
    );
}

#[test]
fn chords_wait_for_their_second_key_and_say_what_can_follow() {
    let map = KeyMap::default();
    let ctx = context(Role::Operator, Phase::Play);
    let Lookup::Prefix(next) = map.lookup(&[key("r")], &ctx) else {
        panic!("r begins the resign chords");
    };
    let commands: Vec<Command> = next.iter().map(|(_, c)| *c).collect();
    assert_eq!(commands, [Command::ResignBlack, Command::ResignWhite]);
    assert_eq!(
        map.lookup(&[key("r"), key("w")], &ctx),
        Lookup::Command(Command::ResignWhite)
    );
    assert_eq!(map.lookup(&[key("r"), key("x")], &ctx), Lookup::None);
}

#[test]
fn commands_follow_the_phase() {
    let play = context(Role::Operator, Phase::Play);
    let judging = context(Role::Operator, Phase::Adjudication);
    assert!(Command::ResignBlack.available(&play));
    assert!(!Command::ResignBlack.available(&judging));
    assert!(!Command::Mark.available(&play));
    assert!(Command::Mark.available(&judging));
    assert!(Command::Score.available(&judging));
    assert!(Command::PauseClocks.available(&play));
    let paused = Context {
        clocks_paused: true,
        ..play.clone()
    };
    assert!(!Command::PauseClocks.available(&paused));
    assert!(Command::ResumeClocks.available(&paused));
    assert!(!Command::TypeMove.available(&play));
    let typed = Context {
        typed_to_move: Some(Color::White),
        ..play.clone()
    };
    assert!(Command::TypeMove.available(&typed));
    let over = Context {
        over: true,
        ..judging
    };
    assert!(
        !Command::Void.available(&over),
        "nothing to void after the result"
    );
    assert!(
        !Command::NextGame.available(&over),
        "only where a game can follow"
    );
    let demo_over = Context {
        can_start_next: true,
        ..over
    };
    assert!(Command::NextGame.available(&demo_over));
}

#[test]
fn trace_keys_act_only_when_the_trace_has_the_focus() {
    let map = KeyMap::default();
    let mut ctx = context(Role::Spectator, Phase::Play);
    assert_eq!(map.lookup(&[key("p")], &ctx), Lookup::None);
    ctx.focus = PaneId::Trace;
    assert_eq!(
        map.lookup(&[key("p")], &ctx),
        Lookup::Command(Command::TracePause)
    );
}

#[test]
fn a_key_map_file_replaces_the_keys_of_the_commands_it_names() {
    let map = KeyMap::from_toml(
        "[keys]\nquit = [\"ctrl-q\"]\nvoid = [\"c v\"]\n",
        "keys.toml",
    )
    .unwrap();
    let ctx = context(Role::Operator, Phase::Play);
    assert_eq!(map.lookup(&[key("q")], &ctx), Lookup::None);
    assert_eq!(
        map.lookup(&[key("ctrl-q")], &ctx),
        Lookup::Command(Command::Quit)
    );
    assert_eq!(
        map.lookup(&[key("c"), key("v")], &ctx),
        Lookup::Command(Command::Void)
    );
    assert_eq!(
        map.keys_of(Command::Help),
        vec![&"?".parse::<Chord>().unwrap()]
    );
}

#[test]
fn a_key_map_file_with_a_mistake_says_where() {
    let cases = [
        ("[keys]\nquit = [\"v\"]\n", "'v' is bound to both"),
        ("[keys]\nexplode = [\"e\"]\n", "'explode' is not a command"),
        (
            "[keys]\nquit = [\"hyper-q\"]\n",
            "quit: 'hyper-q' is not a key",
        ),
        ("[keys]\nquit = [\"c\"]\n", "'c' (quit) begins 'c b'"),
        ("[keys\n", "keys.toml:"),
        ("[buttons]\n", "unknown field"),
    ];
    for (text, expected) in cases {
        let error = KeyMap::from_toml(text, "keys.toml")
            .unwrap_err()
            .to_string();
        assert!(error.contains(expected), "{text:?}: {error}");
        assert!(error.starts_with("keys.toml: "), "{error}");
        assert!(!error.contains('\n'), "one line: {error}");
    }
}

#[test]
fn a_key_may_serve_two_commands_that_never_meet() {
    let map = KeyMap::from_toml("[keys]\nmove_back = [\"v\"]\n", "keys.toml").unwrap();
    let replay = context(Role::Replay, Phase::Play);
    assert_eq!(
        map.lookup(&[key("v")], &replay),
        Lookup::Command(Command::MoveBack)
    );
    let operator = context(Role::Operator, Phase::Play);
    assert_eq!(
        map.lookup(&[key("v")], &operator),
        Lookup::Command(Command::Void)
    );
}
