//! The time chart pane (placeholder until it is written).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::referee::GameView;

use super::Theme;

pub struct TimeChartPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
}

impl Widget for TimeChartPane<'_> {
    fn render(self, _area: Rect, _buf: &mut Buffer) {}
}
