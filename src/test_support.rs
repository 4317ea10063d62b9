//! The shell's tests' support: the core's (a starting instant, a game's
//! start, a clock reading, a plain event) and the reading of a drawn
//! screen buffer.

pub(crate) use goref_core::test_support::*;
pub(crate) use goref_epoch::epoch;

/// A drawn buffer as its rows of text, each without trailing spaces.
pub(crate) fn buffer_lines(buf: &ratatui::buffer::Buffer) -> Vec<String> {
    let area = buf.area;
    (area.y..area.bottom())
        .map(|y| {
            let line: String = (area.x..area.right())
                .map(|x| buf[(x, y)].symbol())
                .collect();
            line.trim_end().to_string()
        })
        .collect()
}
