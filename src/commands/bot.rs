//! `goref bot`: the built-in engine over GTP, or one game on a line.

use crate::cli::BotArgs;
use crate::shell_time::Threads;
use crate::transport::line::LineSpec;
use goref_core::game::Color;
use goref_core::protocol::sgmp::continued::Continued;
use goref_core::protocol::sgmp::session::Profile;

/// The built-in engine: GTP on stdin and stdout, or one game on a line.
pub(super) fn bot(args: BotArgs) -> Result<(), String> {
    let settings = crate::bot::Settings {
        playouts: args.playouts,
        think: std::time::Duration::from_millis(args.think_ms),
    };
    let (profile, device) = match (&args.sgmp, &args.gmp) {
        (Some(device), _) => (Profile::Sgmp, device),
        (_, Some(device)) => (Profile::Gmp, device),
        _ => {
            return crate::bot::gtp::serve_stdio(args.size, args.seed, settings)
                .map_err(|e| format!("bot: {e}"))
        }
    };
    let spec = LineSpec::parse_device(device).map_err(|e| e.to_string())?;
    let color: Color = args
        .color
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(|_| "--color must be black or white".to_string())?;
    let runtime =
        crate::shell_time::runtime(Threads::PerCore).map_err(|e| format!("cannot start: {e}"))?;
    let game = crate::bot::line::LineGame {
        color,
        size: args.size,
        handicap: args.handicap,
        seed: args.seed,
        settings,
    };
    let continued = match (&args.moves, &args.link_bits) {
        (Some(moves), Some(bits)) => Some(Continued::parse(moves, bits, args.size)?),
        _ => None,
    };
    let moves = runtime.block_on(crate::bot::line::play_on_line(
        spec, profile, game, continued,
    ))?;
    if let Some(path) = &args.record {
        let text = crate::bot::line::moves_to_sgf(args.size, &moves);
        crate::files::write_output(path, &text, crate::files::Holds::SgfRecord)
            .map_err(|e| format!("--record: {e}"))?;
    }
    Ok(())
}
