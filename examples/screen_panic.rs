//! Takes the terminal as the screen does, draws a frame, then panics: the
//! panic hook must give the terminal back (cooked mode, the main screen)
//! before the panic's message is printed. `tests/it/screen.rs` runs it in tmux.
//!
//! ```text
//! cargo run --release --example screen_panic
//! ```

use goref::app::terminal::Screen;
use ratatui::widgets::Paragraph;

fn main() {
    let mut screen = Screen::enter().expect("a terminal");
    screen.draw(|frame| {
        frame.render_widget(Paragraph::new("the screen before the panic"), frame.area())
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    panic!("a deliberate panic while the screen owns the terminal");
}
