//! The event file's tests: what it reads, what it refuses and how it says so.

use super::*;

#[test]
fn the_template_reads_back_as_a_four_entrant_swiss() {
    let event = parse(TEMPLATE).unwrap();
    assert_eq!(event.system, System::Swiss);
    assert_eq!((event.rounds, event.entrants.len()), (3, 4));
    assert_eq!(event.tie_breaks, [TieBreak::Sos, TieBreak::Sodos]);
    assert_eq!(event.bye_score, 2);
    assert_eq!(event.game.size, Some(9));
}

#[test]
fn the_smallest_file_of_the_issue_reads() {
    let text = "name = \"club championship\"\nsystem = \"swiss\"\nrounds = 3\n[game]\n\
                rules = \"kgs\"\nsize = 9\n[[entrant]]\nname = \"alpha\"\n\
                player = \"gtp:/usr/games/gnugo --mode gtp --level 1\"\n[[entrant]]\n\
                name = \"beta\"\nplayer = \"bot:2\"\n";
    let event = parse(text).unwrap();
    assert_eq!(event.entrants[1].name, "beta");
    assert_eq!(event.colours, Colours::Nigiri);
}

#[test]
fn a_round_robin_counts_its_rounds_from_the_field() {
    let entrants: String = (1..=5)
        .map(|i| format!("[[entrant]]\nname = \"e{i}\"\nplayer = \"bot\"\n"))
        .collect();
    let file = |system: &str| format!("name = \"x\"\nsystem = \"{system}\"\n{entrants}");
    assert_eq!(parse(&file("round-robin")).unwrap().rounds, 5);
    assert_eq!(parse(&file("double-round-robin")).unwrap().rounds, 10);
}

#[test]
fn a_round_robin_of_divisions_counts_the_rounds_of_the_largest() {
    let entrant = |name: &str, division: &str| {
        format!("[[entrant]]\nname = \"{name}\"\nplayer = \"bot\"\ndivision = \"{division}\"\n")
    };
    let entrants: String = ["a", "b", "c", "d"]
        .iter()
        .map(|n| entrant(n, "open"))
        .chain(["e", "f"].iter().map(|n| entrant(n, "kyu")))
        .collect();
    let text = format!("name = \"x\"\nsystem = \"round-robin\"\n{entrants}");
    assert_eq!(parse(&text).unwrap().rounds, 3);
    let lonely = format!("{text}{}", entrant("g", "dan"));
    assert!(parse(&lonely).unwrap_err().contains("division dan"));
}

#[test]
fn more_swiss_rounds_than_the_field_allows_and_a_round_robins_rounds_are_noted() {
    let entrants: String = ["a", "b", "c", "d"]
        .iter()
        .map(|n| format!("[[entrant]]\nname = \"{n}\"\nplayer = \"bot\"\n"))
        .collect();
    let swiss = |rounds: u32| {
        parse(&format!(
            "name = \"x\"\nsystem = \"swiss\"\nrounds = {rounds}\n{entrants}"
        ))
        .unwrap()
        .notes
    };
    assert!(swiss(3).is_empty());
    assert_eq!(
        swiss(5),
        ["4 entrants allow 3 rounds without a rematch; rounds = 5 repeats pairings"]
    );
    let robin = parse(&format!(
        "name = \"x\"\nsystem = \"round-robin\"\nrounds = 7\n{entrants}"
    ))
    .unwrap();
    assert_eq!(robin.rounds, 3);
    assert!(robin.notes[0].contains("key rounds: a round robin counts its own rounds (3"));
    assert!(robin.notes[0].contains("rounds = 7 is ignored"));
}

#[test]
fn a_knockout_counts_its_stages_and_its_keys_are_refused_elsewhere() {
    let entrants: String = (1..=6)
        .map(|i| format!("[[entrant]]\nname = \"e{i}\"\nplayer = \"bot\"\n"))
        .collect();
    let knockout = parse(&format!(
        "name = \"x\"\nsystem = \"knockout\"\nrounds = 9\nthird_place = true\n\
         on_tie = \"higher-seed\"\n{entrants}"
    ))
    .unwrap();
    assert_eq!(knockout.rounds, 3, "6 entrants: a bracket of 8");
    let settings = knockout.knockout.unwrap();
    assert!(settings.rules.third_place);
    assert_eq!(settings.rules.on_tie, OnTie::HigherSeed);
    assert_eq!(settings.seeds[0], "e1", "the file's order");
    assert!(
        knockout.notes[0].contains("rounds = 9 is ignored"),
        "{:?}",
        knockout.notes
    );
    let swiss = parse(&format!(
        "name = \"x\"\nsystem = \"swiss\"\nrounds = 2\nseed_from = \"../day1\"\n{entrants}"
    ))
    .unwrap_err();
    assert_eq!(swiss, "seed_from: only a knockout takes it");
    let divided = parse(&format!(
        "name = \"x\"\nsystem = \"knockout\"\n{entrants}division = \"b\"\n"
    ))
    .unwrap_err();
    assert!(divided.contains("no divisions"), "{divided}");
}

#[test]
fn a_seated_entrant_plays_through_its_own_seat_where_the_event_listens() {
    let entrants = "[[entrant]]\nname = \"a\"\nplayer = \"seat\"\n\
                    [[entrant]]\nname = \"b\"\nplayer = \"bot\"\n";
    let no_listen = parse(&format!(
        "name = \"x\"\nsystem = \"round-robin\"\n{entrants}"
    ));
    assert!(no_listen.unwrap_err().contains("[seats]: listen"));
    let text = format!(
        "name = \"x\"\nsystem = \"round-robin\"\n[seats]\nlisten = \"0.0.0.0:6819\"\n{entrants}"
    );
    let file = parse(&text).unwrap();
    assert_eq!(file.entrants[0].player, "seat:a");
    assert_eq!(file.seats.dialled().as_deref(), Some("0.0.0.0:6819"));
    assert!(!file.seats.stderr, "stderr stays on the entrants' machines");
    let asked = parse(&text.replace("[seats]\n", "[seats]\nstderr = true\n")).unwrap();
    assert!(asked.seats.stderr);
    let typo = parse(&text.replace("listen =", "listen_on ="));
    assert!(typo.unwrap_err().contains("listen_on"));
}

#[test]
fn a_cgos_entrant_plays_through_the_cgos_door_with_a_password_cgos_takes() {
    let entrants = "[[entrant]]\nname = \"a\"\nplayer = \"cgos\"\n\
                    [[entrant]]\nname = \"b\"\nplayer = \"bot\"\n";
    let head = "name = \"x\"\nsystem = \"round-robin\"\n";
    let no_door = parse(&format!("{head}{entrants}"));
    assert!(no_door.unwrap_err().contains("[seats]: cgos"));
    let text = format!("{head}[seats]\ncgos = \"10.0.0.5:6867\"\n{entrants}");
    let file = parse(&text).unwrap();
    assert_eq!(file.entrants[0].player, "seat:a");
    assert!(file.entrants[0].cgos && !file.entrants[1].cgos);
    assert_eq!(file.seats.cgos_dialled().as_deref(), Some("10.0.0.5:6867"));
    assert_eq!(
        file.seats.door().gift,
        std::time::Duration::from_millis(250)
    );
    let gift = parse(&text.replace("cgos = ", "cgos_gift = 0.5\ncgos = ")).unwrap();
    assert_eq!(
        gift.seats.door().gift,
        std::time::Duration::from_millis(500)
    );
    let with = |password: &str| {
        parse(&text.replace(
            "player = \"cgos\"\n",
            &format!("player = \"cgos\"\npassword = \"{password}\"\n"),
        ))
    };
    assert_eq!(
        with("alpha-pw.1").unwrap().entrants[0].password.as_deref(),
        Some("alpha-pw.1")
    );
    for bad in ["ab", "has space", "seventeen-chars-x", "pässword"] {
        assert!(with(bad).unwrap_err().contains("password"), "{bad}");
    }
    let misplaced = parse(&text.replace(
        "player = \"bot\"\n",
        "player = \"bot\"\npassword = \"secret\"\n",
    ));
    assert!(misplaced
        .unwrap_err()
        .contains("a password is for a CGOS client"));
}

#[test]
fn a_wrong_file_is_one_line_that_names_the_place() {
    let wrong = |text: &str| parse(text).unwrap_err();
    let typo = wrong("name = \"x\"\nsystem = \"swiss\"\nrounds = 3\nround = 4\n");
    assert!(typo.contains("line 4") && typo.contains("round"), "{typo}");
    let system = wrong("name = \"x\"\nsystem = \"lottery\"\n");
    assert!(
        system.contains("line 2") && system.contains("system"),
        "{system}"
    );
    let two = "[[entrant]]\nname = \"a\"\nplayer = \"bot\"\n[[entrant]]\nname = \"b\"\nplayer = \"bot\"\n";
    let base = |head: &str| format!("name = \"x\"\nsystem = \"swiss\"\n{head}\n{two}");
    assert!(wrong(&base("")).contains("rounds"));
    assert!(wrong(&base("rounds = 2\ntie_breaks = \"lottery\"")).contains("tie_breaks"));
    assert!(wrong(&base("rounds = 2\nfiller = \"zeta\"")).contains("zeta"));
    assert!(wrong(&base("rounds = 2\nbye_score = 0.3")).contains("bye_score"));
    assert!(wrong(&base("rounds = 2\nrest = \"a while\"")).contains("rest"));
    assert!(wrong(&base("rounds = 2\n[game]\nblack = \"bot\"")).contains("entrants"));
    let same = format!(
        "name = \"x\"\nsystem = \"swiss\"\nrounds = 1\n{two}{}",
        "[[entrant]]\nname = \"a\"\nplayer = \"bot\"\n"
    );
    assert!(wrong(&same).contains("taken"));
    assert!(
        wrong(&same).starts_with("line 11, column 8, key entrant.name:"),
        "{}",
        wrong(&same)
    );
    let zero = wrong(&base("rounds = 0"));
    assert_eq!(
        zero,
        "line 3, column 10, key rounds: a Swiss plays 1 round at least"
    );
    let words = wrong(&base("rounds = \"three\""));
    assert!(
        words.contains("expected a whole number of rounds"),
        "{words}"
    );
    assert!(!words.contains("u32"), "{words}");
    let bad_player = "name = \"x\"\nsystem = \"swiss\"\nrounds = 1\n[[entrant]]\nname = \"a\"\n\
                      player = \"telnet:x\"\n[[entrant]]\nname = \"b\"\nplayer = \"bot\"\n";
    assert!(wrong(bad_player).contains("entrant 1 (a): player"));
}
