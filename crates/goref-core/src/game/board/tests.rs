//! Tests of the board: captures, legality, ko and superko, handicap, and a
//! property test against a plain model of the rules.

use super::grid::key;
use super::handicap::max_fixed_handicap;
use super::*;
use proptest::prelude::*;
use proptest::sample::Index;

use crate::game::score::{score, Scoring};

const SIMPLE: BoardRules = BoardRules {
    ko: KoRule::Simple,
    suicide_allowed: false,
};
const POSITIONAL: BoardRules = BoardRules {
    ko: KoRule::PositionalSuperko,
    suicide_allowed: false,
};
const SITUATIONAL: BoardRules = BoardRules {
    ko: KoRule::SituationalSuperko,
    suicide_allowed: false,
};
const SUICIDE_OK: BoardRules = BoardRules {
    ko: KoRule::SituationalSuperko,
    suicide_allowed: true,
};

fn pt(vertex: &str) -> Point {
    Point::parse_gtp(vertex, MAX_SIZE).unwrap()
}

fn pts(vertices: &str) -> Vec<Point> {
    let mut points: Vec<Point> = vertices.split_whitespace().map(pt).collect();
    points.sort();
    points
}

fn color(letter: &str) -> Color {
    letter.parse().unwrap()
}

/// Plays moves like `"B D4"` or `"W pass"`, which must all be legal.
fn play_all(board: &mut Board, moves: &[&str]) {
    for m in moves {
        let (c, vertex) = m.split_once(' ').unwrap();
        let result = if vertex == "pass" {
            board.pass(color(c)).map(|()| Vec::new())
        } else {
            board.play(color(c), pt(vertex))
        };
        assert!(result.is_ok(), "{m}: {result:?}\n{board}");
    }
}

fn setup(size: u8, rules: BoardRules, black: &str, white: &str) -> Board {
    let mut board = Board::new(size, rules).unwrap();
    board.place_setup(Color::Black, &pts(black)).unwrap();
    board.place_setup(Color::White, &pts(white)).unwrap();
    board
}

/// Plays after asserting that `check` gives the same verdict.
fn checked_play(board: &mut Board, c: Color, p: Point) -> Result<Vec<Point>, Illegal> {
    let verdict = board.check(c, p);
    let result = board.play(c, p);
    assert_eq!(verdict, result.as_ref().map(|_| ()).map_err(|e| *e));
    result
}

#[test]
fn sizes_outside_2_to_25_are_rejected() {
    assert_eq!(Board::new(1, SIMPLE).err(), Some(BoardError::Size(1)));
    assert_eq!(Board::new(26, SIMPLE).err(), Some(BoardError::Size(26)));
    assert_eq!(Board::new(2, SIMPLE).unwrap().points().count(), 4);
    let board = Board::new(25, SIMPLE).unwrap();
    assert_eq!(board.points().count(), 625);
    assert_eq!(board.to_move(), Color::Black);
    assert_eq!(board.hash(), 0);
    assert_eq!(board.move_number(), 0);
}

#[test]
fn a_surrounded_stone_is_captured_and_counted() {
    let mut board = Board::new(9, SIMPLE).unwrap();
    play_all(
        &mut board,
        &["B E4", "W E5", "B E6", "W pass", "B D5", "W pass"],
    );
    assert_eq!(board.liberty_count(pt("E5")), 1);
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("F5")),
        Ok(pts("E5"))
    );
    assert_eq!(board.get(pt("E5")), None);
    assert_eq!(board.prisoners(Color::Black), 1);
    assert_eq!(board.prisoners(Color::White), 0);
    assert_eq!(board.move_number(), 7);
    assert_eq!(board.to_move(), Color::White);
}

#[test]
fn a_whole_chain_is_captured() {
    let mut board = setup(9, SIMPLE, "D5 D6 F5 F6 E4", "E5 E6");
    assert_eq!(board.group(pt("E6")), pts("E5 E6"));
    assert_eq!(board.liberty_count(pt("E5")), 1);
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("E7")),
        Ok(pts("E5 E6"))
    );
    assert_eq!(board.prisoners(Color::Black), 2);
    assert_eq!(board.group(pt("E5")), Vec::<Point>::new());
}

#[test]
fn one_stone_can_capture_several_chains() {
    let mut board = setup(9, SIMPLE, "B1 D1 A2 E2 B3 D3 C4", "B2 D2 C3");
    assert_eq!(board.liberty_count(pt("B2")), 1);
    assert_eq!(board.liberty_count(pt("D2")), 1);
    assert_eq!(board.liberty_count(pt("C3")), 1);
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("C2")),
        Ok(pts("B2 C3 D2"))
    );
    assert_eq!(board.prisoners(Color::Black), 3);
    assert_eq!(board.liberty_count(pt("C2")), 4);
    let mut board = setup(9, SIMPLE, "A3 B2 C1", "A2 B1");
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("A1")),
        Ok(pts("A2 B1")),
        "two single stones in the corner"
    );
    assert_eq!(board.liberty_count(pt("A1")), 2);
}

#[test]
fn stones_on_the_edge_and_in_the_corner_are_captured() {
    let mut board = setup(9, SIMPLE, "B1", "A1");
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("A2")),
        Ok(pts("A1"))
    );
    let mut board = setup(9, SIMPLE, "C1 D2 E2", "D1 E1");
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("F1")),
        Ok(pts("D1 E1"))
    );
    assert_eq!(board.liberty_count(pt("F1")), 3);
    let mut board = setup(9, SIMPLE, "H9 J8", "J9 H8");
    board.set_to_move(Color::White);
    assert_eq!(
        checked_play(&mut board, Color::White, pt("G9")),
        Ok(pts("H9"))
    );
    let board = setup(9, SIMPLE, "C1 E1 D2", "D1");
    assert_eq!(
        board.liberty_count(pt("D1")),
        0,
        "setup stones capture nothing"
    );
    let mut board = setup(9, SIMPLE, "C1 D2", "D1");
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("E1")),
        Ok(pts("D1"))
    );
}

#[test]
fn suicide_is_illegal_unless_the_rules_allow_it() {
    for rules in [SIMPLE, POSITIONAL, SITUATIONAL] {
        let mut board = setup(9, rules, "", "A2 B1");
        let before = board.hash();
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("A1")),
            Err(Illegal::Suicide)
        );
        assert_eq!(board.get(pt("A1")), None);
        assert_eq!(board.hash(), before);
        assert_eq!(board.to_move(), Color::Black);
        let mut board = setup(9, rules, "A1 B1", "A3 B2 C1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("A2")),
            Err(Illegal::Suicide),
            "filling the last liberty of a chain"
        );
        assert_eq!(board.group(pt("A1")), pts("A1 B1"));
        assert_eq!(board.liberty_count(pt("A1")), 1);
    }

    let mut board = setup(9, SUICIDE_OK, "A1 B1", "A3 B2 C1");
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("A2")),
        Ok(Vec::new())
    );
    assert_eq!(board.get(pt("A1")), None);
    assert_eq!(board.get(pt("B1")), None);
    assert_eq!(board.get(pt("A2")), None);
    assert_eq!(
        board.prisoners(Color::White),
        3,
        "the opponent gets the suicided stones"
    );
    assert_eq!(board.prisoners(Color::Black), 0);
    assert_eq!(board.to_move(), Color::White);
    assert_eq!(board.move_number(), 1);
    assert_eq!(board.liberty_count(pt("B2")), 4);
}

#[test]
fn a_move_without_liberties_that_captures_is_not_suicide() {
    let mut board = setup(9, SIMPLE, "A2 B3 C2", "A3 B1 B2 C3 D2");
    board.set_to_move(Color::White);
    assert_eq!(board.liberty_count(pt("A2")), 1);
    assert_eq!(
        checked_play(&mut board, Color::White, pt("A1")),
        Ok(pts("A2"))
    );
    let mut board = setup(9, SIMPLE, "A2 B1", "A3 B2 C1");
    board.set_to_move(Color::White);
    assert_eq!(
        checked_play(&mut board, Color::White, pt("A1")),
        Ok(pts("A2 B1"))
    );
    assert_eq!(board.liberty_count(pt("A1")), 2);
}

#[test]
fn occupied_off_board_and_wrong_turn_are_reported_in_order() {
    let mut board = Board::new(9, SIMPLE).unwrap();
    play_all(&mut board, &["B E5"]);
    assert_eq!(board.check(Color::White, pt("E5")), Err(Illegal::Occupied));
    assert_eq!(
        board.check(Color::White, Point::new(9, 0)),
        Err(Illegal::OffBoard)
    );
    assert_eq!(
        board.check(Color::White, Point::new(0, 9)),
        Err(Illegal::OffBoard)
    );
    assert_eq!(board.check(Color::Black, pt("A1")), Err(Illegal::WrongTurn));
    assert_eq!(board.check(Color::Black, pt("E5")), Err(Illegal::WrongTurn));
    assert_eq!(
        board.check(Color::Black, Point::new(20, 20)),
        Err(Illegal::WrongTurn)
    );
    assert_eq!(board.play(Color::Black, pt("A1")), Err(Illegal::WrongTurn));
    assert_eq!(board.play(Color::White, pt("E5")), Err(Illegal::Occupied));
    assert_eq!(
        board.play(Color::White, Point::new(9, 9)),
        Err(Illegal::OffBoard)
    );
    assert_eq!(board.pass(Color::Black), Err(Illegal::WrongTurn));
    assert_eq!(board.move_number(), 1);
    assert_eq!(board.pass(Color::White), Ok(()));
    assert_eq!(board.to_move(), Color::Black);
    assert_eq!(board.move_number(), 2);
}

#[test]
fn immediate_ko_recapture_is_illegal_until_a_threat_is_exchanged() {
    for rules in [SIMPLE, POSITIONAL, SITUATIONAL] {
        let mut board = Board::new(9, rules).unwrap();
        play_all(
            &mut board,
            &["B D6", "W E6", "B C5", "W F5", "B D4", "W E4", "B E5"],
        );
        assert_eq!(
            checked_play(&mut board, Color::White, pt("D5")),
            Ok(pts("E5"))
        );
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("E5")),
            Err(Illegal::Ko)
        );
        assert_eq!(
            board.get(pt("D5")),
            Some(Color::White),
            "rejected move left no trace"
        );
        assert_eq!(board.liberty_count(pt("D5")), 1);
        play_all(&mut board, &["B G7", "W G8"]);
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("E5")),
            Ok(pts("D5"))
        );
        assert_eq!(
            checked_play(&mut board, Color::White, pt("D5")),
            Err(Illegal::Ko)
        );
        play_all(&mut board, &["W pass", "B pass"]);
        if rules == SIMPLE {
            assert_eq!(
                checked_play(&mut board, Color::White, pt("D5")),
                Ok(pts("E5"))
            );
        } else {
            assert_eq!(
                checked_play(&mut board, Color::White, pt("D5")),
                Err(Illegal::Superko),
                "{rules:?}: recreates the position after W G8 with Black to move"
            );
        }
    }
}

#[test]
fn the_superko_test_vector_of_the_rules_reference() {
    let moves = [
        "B A2", "W B1", "B B2", "W C2", "B B3", "W D1", "B A3", "W A1",
    ];
    let expected = [
        (SIMPLE, Ok(pts("C1"))),
        (POSITIONAL, Err(Illegal::Superko)),
        (SITUATIONAL, Ok(pts("C1"))),
    ];
    for (rules, outcome) in expected {
        let mut board = Board::new(19, rules).unwrap();
        play_all(&mut board, &moves);
        let after_a3 = board.history.positions[7].stones.clone();
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("C1")),
            Ok(pts("A1 B1"))
        );
        assert_eq!(
            checked_play(&mut board, Color::White, pt("B1")),
            outcome,
            "{rules:?}"
        );
        if outcome.is_ok() {
            assert!(board.grid.same_stones(&after_a3));
        }
    }
}

#[test]
fn situational_superko_forbids_a_repeat_with_the_same_player_to_move() {
    let expected = [
        (SIMPLE, Ok(pts("E5"))),
        (POSITIONAL, Err(Illegal::Superko)),
        (SITUATIONAL, Err(Illegal::Superko)),
    ];
    for (rules, outcome) in expected {
        let mut board = setup(9, rules, "D6 C5 D4", "E6 F5 E4 D5");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("E5")),
            Ok(pts("D5"))
        );
        play_all(&mut board, &["W pass", "B pass"]);
        assert_eq!(
            checked_play(&mut board, Color::White, pt("D5")),
            outcome,
            "{rules:?}: the setup position with Black to move again"
        );
    }
}

#[test]
fn situational_superko_follows_the_player_to_move_set_after_setup() {
    let mut board = setup(9, SITUATIONAL, "D6 C5 D4", "E6 F5 E4 D5");
    board.set_to_move(Color::White);
    assert_eq!(board.history.positions.len(), 1);
    assert_eq!(board.history.positions[0].to_move, Color::White);
    play_all(&mut board, &["W A9", "B E5", "W pass", "B A8", "W pass"]);
    assert_eq!(board.check(Color::Black, pt("A7")), Ok(()));
}

#[test]
fn a_hash_collision_never_makes_a_legal_move_illegal() {
    let mut board = Board::new(9, POSITIONAL).unwrap();
    play_all(&mut board, &["B E5", "W pass", "B pass"]);
    let d5 = board.grid.index(pt("D5"));
    let after = board.hash() ^ key(d5, cell_of(Color::White));
    let impostor = Position {
        hash: after,
        to_move: Color::Black,
        stones: vec![0; 81].into_boxed_slice(),
    };
    board.history.seen.entry(after).or_default().push(0);
    board.history.positions[0] = impostor;
    assert_eq!(board.check(Color::White, pt("D5")), Ok(()));
    let mut real = board.clone();
    let mut stones = board.grid.snapshot();
    stones[pt("D5").index(9)] = cell_of(Color::White);
    real.history.positions[0].stones = stones;
    assert_eq!(real.check(Color::White, pt("D5")), Err(Illegal::Superko));
    assert_eq!(board.play(Color::White, pt("D5")), Ok(Vec::new()));
    assert_eq!(board.hash(), after);
}

#[test]
fn fixed_handicap_follows_the_gtp_patterns() {
    let spelled = |size: u8, stones: u8| -> Vec<String> {
        fixed_handicap(size, stones)
            .unwrap()
            .iter()
            .map(|p| p.to_gtp())
            .collect()
    };
    assert_eq!(spelled(19, 2), ["D4", "Q16"]);
    assert_eq!(spelled(19, 3), ["D4", "Q16", "D16"]);
    assert_eq!(spelled(19, 4), ["D4", "Q16", "D16", "Q4"]);
    assert_eq!(spelled(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
    assert_eq!(spelled(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
    assert_eq!(
        spelled(19, 7),
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"]
    );
    assert_eq!(
        spelled(19, 8),
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
    );
    assert_eq!(
        spelled(19, 9),
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    );
    assert_eq!(spelled(9, 2), ["C3", "G7"]);
    assert_eq!(spelled(9, 9).len(), 9);
    assert!(spelled(9, 9).contains(&"E5".to_string()));
    assert_eq!(spelled(13, 5), ["D4", "K10", "D10", "K4", "G7"]);
    assert_eq!(spelled(7, 4), ["C3", "E5", "C5", "E3"]);
    assert_eq!(spelled(8, 4), ["C3", "F6", "C6", "F3"]);
    assert_eq!(spelled(10, 2), ["C3", "H8"]);
    assert_eq!(spelled(25, 9).last().unwrap(), "N13");

    let refused = [
        (19, 0),
        (19, 1),
        (19, 10),
        (9, 10),
        (7, 5),
        (8, 5),
        (18, 5),
        (6, 2),
        (2, 2),
    ];
    for (size, stones) in refused {
        let max = max_fixed_handicap(size);
        assert_eq!(
            fixed_handicap(size, stones),
            Err(BoardError::Handicap { size, stones, max }),
            "{size}x{size} h{stones}"
        );
    }
    assert_eq!(fixed_handicap(26, 2), Err(BoardError::Size(26)));
    assert_eq!(
        BoardError::Handicap {
            size: 8,
            stones: 5,
            max: 4
        }
        .to_string(),
        "a fixed handicap of 5 stones is not defined on a 8x8 board (2 to 4 stones)"
    );
    assert!(BoardError::Handicap {
        size: 5,
        stones: 2,
        max: 0
    }
    .to_string()
    .contains("needs 7x7 or larger"));
}

#[test]
fn setup_stones_form_the_initial_position() {
    let mut board = Board::new(19, POSITIONAL).unwrap();
    let stones = fixed_handicap(19, 4).unwrap();
    assert_eq!(board.place_setup(Color::Black, &stones), Ok(()));
    assert_eq!(
        board.to_move(),
        Color::Black,
        "setup does not change the turn"
    );
    board.set_to_move(Color::White);
    assert_eq!(board.move_number(), 0);
    assert_eq!(board.stones().count(), 4);
    assert!(stones.iter().all(|&p| board.get(p) == Some(Color::Black)));
    assert_eq!(board.history.positions.len(), 1);
    assert!(board.grid.same_stones(&board.history.positions[0].stones));

    let before = board.hash();
    assert_eq!(
        board.place_setup(Color::White, &[pt("A1"), pt("D4")]),
        Err(Illegal::Occupied)
    );
    assert_eq!(
        board.place_setup(Color::White, &[pt("A1"), pt("A1")]),
        Err(Illegal::Occupied)
    );
    assert_eq!(
        board.place_setup(Color::White, &[pt("A1"), Point::new(19, 0)]),
        Err(Illegal::OffBoard)
    );
    assert_eq!(board.hash(), before, "a refused setup places nothing");
    assert_eq!(board.get(pt("A1")), None);
}

#[test]
fn the_diagram_labels_columns_without_i_and_rows_from_the_bottom() {
    let board = setup(9, SIMPLE, "A1 J9", "E5");
    let expected = "   A B C D E F G H J
 9 . . . . . . . . X 9
 8 . . . . . . . . . 8
 7 . . . . . . . . . 7
 6 . . . . . . . . . 6
 5 . . . . O . . . . 5
 4 . . . . . . . . . 4
 3 . . . . . . . . . 3
 2 . . . . . . . . . 2
 1 X . . . . . . . . 1
   A B C D E F G H J
";
    assert_eq!(board.to_string(), expected);
}

#[test]
fn eye_like_points_allow_one_enemy_diagonal_in_the_middle_only() {
    let board = setup(9, SIMPLE, "D5 F5 E4 E6 A2 B1 H9 J8", "D4");
    assert!(board.is_eye_like(Color::Black, pt("E5")));
    assert!(!board.is_eye_like(Color::White, pt("E5")));
    assert!(board.is_eye_like(Color::Black, pt("A1")));
    assert!(board.is_eye_like(Color::Black, pt("J9")));
    assert!(!board.is_eye_like(Color::Black, pt("E4")), "occupied");
    assert!(!board.is_eye_like(Color::Black, pt("C3")));
    let board = setup(9, SIMPLE, "D5 F5 E4 E6", "D4 F6");
    assert!(
        !board.is_eye_like(Color::Black, pt("E5")),
        "two enemy diagonals"
    );
    let board = setup(9, SIMPLE, "A2 B1", "B2");
    assert!(
        !board.is_eye_like(Color::Black, pt("A1")),
        "enemy diagonal in the corner"
    );
    let board = setup(9, SIMPLE, "D1 F1 E2", "D2");
    assert!(
        !board.is_eye_like(Color::Black, pt("E1")),
        "enemy diagonal on the edge"
    );
}

#[test]
fn neighbours_groups_and_liberties() {
    let board = setup(9, SIMPLE, "E5 E6 F6", "D5");
    let n = |v: &str| board.neighbors(pt(v)).collect::<Vec<_>>();
    assert_eq!(n("A1"), [pt("B1"), pt("A2")]);
    assert_eq!(n("E5"), [pt("E4"), pt("D5"), pt("F5"), pt("E6")]);
    assert_eq!(n("J9"), [pt("J8"), pt("H9")]);
    assert_eq!(board.neighbors(Point::new(9, 0)).count(), 0);
    assert_eq!(board.group(pt("E5")), pts("E5 E6 F6"));
    assert_eq!(board.liberty_count(pt("F6")), 6);
    assert_eq!(board.liberty_count(pt("D5")), 3);
    assert_eq!(board.liberty_count(pt("A1")), 0);
    assert_eq!(board.group(Point::new(30, 30)), Vec::<Point>::new());
    assert_eq!(board.get(Point::new(30, 30)), None);
    let stones: Vec<_> = board.stones().collect();
    assert_eq!(
        stones,
        [
            (pt("D5"), Color::White),
            (pt("E5"), Color::Black),
            (pt("E6"), Color::Black),
            (pt("F6"), Color::Black)
        ]
    );
    assert_eq!(board.points().nth(9), Some(pt("A2")));
}

#[test]
fn legal_points_are_the_checked_ones_for_the_side_to_move() {
    let board = setup(3, SIMPLE, "A2 B1", "C2");
    let legal = board.legal_points(Color::Black);
    assert_eq!(legal.len(), 9 - 3);
    assert!(legal.contains(&pt("A1")));
    let mut board = setup(3, SIMPLE, "", "A2 B1");
    assert!(!board.legal_points(Color::Black).contains(&pt("A1")));
    assert!(
        board.legal_points(Color::White).is_empty(),
        "not White's turn"
    );
    board.set_to_move(Color::White);
    assert_eq!(board.legal_points(Color::White).len(), 7);
}

#[test]
fn illegal_reasons_read_and_serialise_plainly() {
    assert_eq!(Illegal::Occupied.to_string(), "the point is occupied");
    assert_eq!(Illegal::Ko.to_string(), "ko: immediate recapture");
    assert_eq!(
        Illegal::Superko.to_string(),
        "superko: repeats an earlier position"
    );
    assert_eq!(Illegal::WrongTurn.to_string(), "not this player's turn");
    assert_eq!(
        serde_json::to_string(&Illegal::WrongTurn).unwrap(),
        "\"wrong_turn\""
    );
    assert_eq!(
        serde_json::to_string(&KoRule::PositionalSuperko).unwrap(),
        "\"positional_superko\""
    );
}

/// A deliberately plain model of the rules: whole-board copies, flood
/// fills, and a linear scan of every earlier position.
#[derive(Clone)]
struct Reference {
    size: usize,
    rules: BoardRules,
    cells: Vec<Option<Color>>,
    to_move: Color,
    history: Vec<(Vec<Option<Color>>, Color)>,
}

impl Reference {
    fn new(size: u8, rules: BoardRules) -> Reference {
        let cells = vec![None; size as usize * size as usize];
        Reference {
            size: size as usize,
            rules,
            history: vec![(cells.clone(), Color::Black)],
            cells,
            to_move: Color::Black,
        }
    }

    fn adjacent(&self, k: usize) -> Vec<usize> {
        let (col, row) = (k % self.size, k / self.size);
        let mut out = Vec::new();
        if row > 0 {
            out.push(k - self.size);
        }
        if col > 0 {
            out.push(k - 1);
        }
        if col + 1 < self.size {
            out.push(k + 1);
        }
        if row + 1 < self.size {
            out.push(k + self.size);
        }
        out
    }

    fn chain(&self, cells: &[Option<Color>], k: usize) -> (Vec<usize>, bool) {
        let mut chain = vec![k];
        let mut breathes = false;
        let mut at = 0;
        while at < chain.len() {
            for q in self.adjacent(chain[at]) {
                if cells[q].is_none() {
                    breathes = true;
                } else if cells[q] == cells[k] && !chain.contains(&q) {
                    chain.push(q);
                }
            }
            at += 1;
        }
        (chain, breathes)
    }

    fn attempt(&self, c: Color, p: Point) -> Result<(Vec<Option<Color>>, Vec<Point>), Illegal> {
        if c != self.to_move {
            return Err(Illegal::WrongTurn);
        }
        if !p.is_on(self.size as u8) {
            return Err(Illegal::OffBoard);
        }
        let k = p.index(self.size as u8);
        if self.cells[k].is_some() {
            return Err(Illegal::Occupied);
        }
        let mut cells = self.cells.clone();
        cells[k] = Some(c);
        let mut captured = Vec::new();
        for q in self.adjacent(k) {
            if cells[q] == Some(c.opponent()) {
                let (chain, breathes) = self.chain(&cells, q);
                if !breathes {
                    for s in chain {
                        cells[s] = None;
                        captured.push(Point::from_index(s, self.size as u8));
                    }
                }
            }
        }
        let (own, breathes) = self.chain(&cells, k);
        if !breathes {
            if !self.rules.suicide_allowed {
                return Err(Illegal::Suicide);
            }
            for s in own {
                cells[s] = None;
            }
        }
        let n = self.history.len();
        if n >= 2 && self.rules.ko != KoRule::Lax && self.history[n - 2].0 == cells {
            return Err(Illegal::Ko);
        }
        let repeats = self.history.iter().any(|(earlier, to_move)| {
            *earlier == cells
                && match self.rules.ko {
                    KoRule::Simple | KoRule::Lax => false,
                    KoRule::PositionalSuperko => true,
                    KoRule::SituationalSuperko => *to_move == c.opponent(),
                }
        });
        if repeats {
            return Err(Illegal::Superko);
        }
        captured.sort();
        Ok((cells, captured))
    }

    fn verdict(&self, c: Color, p: Point) -> Result<(), Illegal> {
        self.attempt(c, p).map(|_| ())
    }

    fn play(&mut self, c: Color, p: Point) -> Result<Vec<Point>, Illegal> {
        let (cells, captured) = self.attempt(c, p)?;
        self.cells = cells;
        self.advance();
        Ok(captured)
    }

    fn advance(&mut self) {
        self.to_move = self.to_move.opponent();
        self.history.push((self.cells.clone(), self.to_move));
    }
}

/// The hash from scratch, and chains rebuilt from scratch, must match the
/// incrementally maintained ones.
fn assert_consistent(board: &Board) {
    let grid = &board.grid;
    let from_scratch = board
        .stones()
        .fold(0, |h, (p, c)| h ^ key(grid.index(p), cell_of(c)));
    assert_eq!(board.hash(), from_scratch, "incremental hash\n{board}");
    let mut fresh = Grid::new(grid.size);
    fresh.load(&grid.snapshot());
    for (p, _) in board.stones() {
        let i = grid.index(p);
        assert_eq!(grid.chain_of(i), fresh.chain_of(i), "chain at {p}\n{board}");
        for q in grid.neighbours(i) {
            if grid.cells[q] == grid.cells[i] {
                assert_eq!(grid.head[q], grid.head[i], "split chain at {p}");
            }
        }
    }
}

fn liberties_by_flood_fill(board: &Board, p: Point) -> usize {
    let c = board.get(p);
    let mut chain = vec![p];
    let mut liberties = Vec::new();
    let mut at = 0;
    while at < chain.len() {
        for q in board.neighbors(chain[at]) {
            match board.get(q) {
                None if !liberties.contains(&q) => liberties.push(q),
                Some(_) if board.get(q) == c && !chain.contains(&q) => chain.push(q),
                _ => {}
            }
        }
        at += 1;
    }
    liberties.len()
}

fn any_rules() -> impl Strategy<Value = BoardRules> {
    (
        prop_oneof![
            Just(KoRule::Simple),
            Just(KoRule::PositionalSuperko),
            Just(KoRule::SituationalSuperko),
            Just(KoRule::Lax)
        ],
        any::<bool>(),
    )
        .prop_map(|(ko, suicide_allowed)| BoardRules {
            ko,
            suicide_allowed,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_agree_with_the_plain_model_and_stay_consistent(
        size in 2u8..=19,
        rules in any_rules(),
        steps in prop::collection::vec((any::<Index>(), any::<Index>(), 0u8..20), 1..220),
    ) {
        let mut board = Board::new(size, rules).unwrap();
        let mut model = Reference::new(size, rules);
        let area = size as usize * size as usize;
        let mut placed = 0u32;
        let mut recaptures: Vec<Point> = Vec::new();
        for (n, (probe, choice, kind)) in steps.into_iter().enumerate() {
            let c = board.to_move();
            let k = probe.index(area + 4);
            let p = if k < area {
                Point::from_index(k, size)
            } else {
                Point::new(size + (k - area) as u8 % 2, (k - area) as u8 / 2)
            };
            for p in std::iter::once(p).chain(recaptures.iter().copied()) {
                let verdict = board.check(c, p);
                prop_assert_eq!(verdict, model.verdict(c, p), "check at {}\n{}", p, board);
                prop_assert_eq!(board.clone().play(c, p), model.clone().play(c, p));
                prop_assert_eq!(board.check(c.opponent(), p), Err(Illegal::WrongTurn));
            }

            let legal = board.legal_points(c);
            if n % 25 == 0 {
                let expected: Vec<Point> =
                    board.points().filter(|&q| model.verdict(c, q).is_ok()).collect();
                prop_assert_eq!(&legal, &expected);
            }
            let sensible: Vec<Point> =
                legal.iter().copied().filter(|&q| !board.is_eye_like(c, q)).collect();
            let pool = if kind < 4 { &legal } else { &sensible };
            if kind == 0 || pool.is_empty() {
                prop_assert_eq!(board.pass(c), Ok(()));
                model.advance();
                recaptures.clear();
            } else {
                let q = pool[choice.index(pool.len())];
                let captured = board.play(c, q);
                prop_assert!(captured.is_ok(), "legal point {} refused", q);
                prop_assert_eq!(&captured, &model.play(c, q));
                recaptures = captured.unwrap_or_default();
                placed += 1;
            }

            assert_consistent(&board);
            let on_board: Vec<(Point, Color)> = board.stones().collect();
            let modelled: Vec<(Point, Color)> = model.cells.iter().enumerate()
                .filter_map(|(k, c)| c.map(|c| (Point::from_index(k, size), c)))
                .collect();
            prop_assert_eq!(&on_board, &modelled);
            for &(p, _) in &on_board {
                prop_assert!(liberties_by_flood_fill(&board, p) > 0, "chain at {} has no liberty", p);
                prop_assert_eq!(board.liberty_count(p), liberties_by_flood_fill(&board, p));
            }
            prop_assert_eq!(
                placed,
                on_board.len() as u32 + board.prisoners(Color::Black) + board.prisoners(Color::White)
            );
            let count = score(&board, &Default::default(), Scoring::Area, 0.0);
            prop_assert!(count.black + count.white <= area as f64);
        }
    }
}

#[test]
fn a_lax_ko_rule_plays_the_immediate_recapture_and_says_it_is_one() {
    let lax = BoardRules {
        ko: KoRule::Lax,
        suicide_allowed: false,
    };
    let mut board = Board::new(9, lax).unwrap();
    play_all(
        &mut board,
        &[
            "B D6", "W E6", "B C5", "W F5", "B D4", "W E4", "B E5", "W D5",
        ],
    );
    assert!(board.recaptures_ko(Color::Black, pt("E5")));
    assert!(!board.recaptures_ko(Color::Black, pt("G7")));
    assert_eq!(board.check(Color::Black, pt("E5")), Ok(()));
    assert_eq!(
        checked_play(&mut board, Color::Black, pt("E5")),
        Ok(pts("D5"))
    );
    assert!(
        board.recaptures_ko(Color::White, pt("D5")),
        "and back again"
    );

    let mut simple = Board::new(9, SIMPLE).unwrap();
    play_all(
        &mut simple,
        &[
            "B D6", "W E6", "B C5", "W F5", "B D4", "W E4", "B E5", "W D5",
        ],
    );
    assert!(simple.recaptures_ko(Color::Black, pt("E5")));
    assert_eq!(simple.check(Color::Black, pt("E5")), Err(Illegal::Ko));
}
