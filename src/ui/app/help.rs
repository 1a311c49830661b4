//! The Help menu's window: a quick start for a first session, and every key and gesture of the
//! window in one list (the same list docs/window.md gives).

/// Which part of the help is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HelpPage {
    #[default]
    QuickStart,
    Keys,
    About,
}

/// The quick start: what to do in the first minutes.
const QUICK_START: &[(&str, &str)] = &[
    (
        "1. Pick a ruleset",
        "Click one in the Catalog on the left (wythoff, euclid, octal codes, ...) or type an \
         expression such as push(nim,euclid0) and press Enter. Games on more than two heaps \
         show a slice: choose the heaps on the axes and the values of the others.",
    ),
    (
        "   Or type your own game",
        "Under Your own rule, pick one from Examples (Grundy's game, Kayles, generalized \
         Wythoff, ...) or type a rule such as rule(n -> [k, n - k] for k in 1..n if 2*k < n) \
         (Grundy's game) and press Ctrl+Enter: it is explored like a built-in ruleset. Syntax \
         shows the move language; Keep saves a rule under a name in My rules.",
    ),
    (
        "2. Read the map",
        "Dark cells are P-positions (the player to move loses). Drag to pan, use the wheel to \
         zoom; View switches to Grundy values, values mod 2 or 4, or the difference from a \
         second ruleset or a theorem, and adds overlays. Games on one heap show G(n) as a plot \
         and a strip instead.",
    ),
    (
        "3. Inspect a position",
        "Click a cell (or a heap of the strip), or type a position in the inspector on the \
         right: its value, the mex of its options, and the options as a move tree. Play from \
         here plays against the computer or by hand; in a game, a click on a ringed cell of the \
         map plays that move.",
    ),
    (
        "4. Cram boards",
        "The Cram board tab edits a board: click cells to block them, drag between two cells \
         to place a domino; the value, the components and every placement follow.",
    ),
    (
        "5. Keep and show",
        "File > Save keeps the exploration in a session file; File > Export writes a figure of \
         what the window shows. Every file action takes a path typed in its own field; Browse \
         opens the desktop's file dialog where there is one.",
    ),
];

/// Every key and gesture: where, what, and what it does.
const KEYS: &[(&str, &str, &str)] = &[
    ("rule editor", "Ctrl+Enter", "apply the typed rule"),
    ("map", "drag", "pan"),
    ("map", "wheel, pinch", "zoom around the pointer"),
    ("map", "+  or  =,  -", "zoom in, out"),
    ("map", "0", "fit the ruleset's natural view"),
    ("map", "arrow keys", "pan (while the pointer is not over the inspector)"),
    (
        "map",
        "click",
        "inspect the cell's position; in a game, play the move to it",
    ),
    ("strip (one heap)", "click", "inspect heap n"),
    ("plot (one heap)", "wheel, drag", "zoom and pan n"),
    ("plot (one heap)", "double click", "show all of G(0..600)"),
    ("move tree", "click a node", "expand or collapse it"),
    ("move tree", "right click a node", "inspect it, or play from it"),
    (
        "move tree",
        "arrow keys, Enter",
        "walk the tree (pointer over the inspector, or after a click in it)",
    ),
    ("board", "click a cell", "block or unblock it"),
    (
        "board",
        "drag between cells",
        "place a domino (or click the edge between them)",
    ),
    ("board", "click a domino", "remove it"),
    ("board", "Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y", "undo, redo"),
    ("board", "Ctrl+V", "paste a board text"),
    (
        "window",
        "Ctrl+O, Ctrl+S, Ctrl+Shift+S",
        "open, save, save as (not while typing in a field)",
    ),
    ("window", "Ctrl+E", "export a figure"),
    ("window", "Ctrl+Q", "quit (asks about unsaved changes)"),
    ("prompts", "Enter, Escape", "carry out, cancel"),
    (
        "window",
        "Tab, Shift+Tab",
        "the next, the previous field or button (the rule editor too)",
    ),
    (
        "window",
        "Enter or Space",
        "press the focused button, tick the focused box",
    ),
    (
        "window",
        "F10 or Alt+F, Alt+V, Alt+H",
        "the File, View, Help menu (Enter opens it)",
    ),
    (
        "View menu",
        "Escape, a click outside it",
        "close it (it stays open while its fields are typed into)",
    ),
];

/// The Help window: whether it is open, and on which page.
#[derive(Debug, Clone, Default)]
pub struct Help {
    open: bool,
    page: HelpPage,
}

impl Help {
    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Opens the window on `page`.
    pub fn open(&mut self, page: HelpPage) {
        self.open = true;
        self.page = page;
    }

    /// Closes the window.
    pub fn close(&mut self) {
        self.open = false;
    }

    /// The Help menu's entries.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui) {
        for (page, label) in [
            (HelpPage::QuickStart, "Quick start"),
            (HelpPage::Keys, "Keys and gestures"),
            (HelpPage::About, "About nimscope"),
        ] {
            if ui.button(label).clicked() {
                self.open(page);
                ui.close();
            }
        }
    }

    /// Draws the window while open.
    pub fn ui(&mut self, ctx: &egui::Context) {
        help_window_ui(ctx, &mut self.open, &mut self.page);
    }
}

/// Draws the help window while `open`.
fn help_window_ui(ctx: &egui::Context, open: &mut bool, page: &mut HelpPage) {
    egui::Window::new("Help")
        .open(open)
        .default_width(560.0)
        .resizable(true)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(page, HelpPage::QuickStart, "Quick start");
                ui.selectable_value(page, HelpPage::Keys, "Keys and gestures");
                ui.selectable_value(page, HelpPage::About, "About");
            });
            ui.separator();
            egui::ScrollArea::vertical().max_height(480.0).show(ui, |ui| match page {
                HelpPage::QuickStart => {
                    for (title, text) in QUICK_START {
                        ui.strong(*title);
                        ui.label(*text);
                        ui.add_space(6.0);
                    }
                }
                HelpPage::Keys => {
                    egui::Grid::new("help-keys").striped(true).num_columns(3).show(ui, |ui| {
                        for (place, key, what) in KEYS {
                            ui.label(*place);
                            ui.monospace(*key);
                            ui.label(*what);
                            ui.end_row();
                        }
                    });
                }
                HelpPage::About => {
                    ui.label(format!("nimscope {}", nimscope_core::GIT_COMMIT_VERSION));
                    ui.label("An explorer for impartial combinatorial games: maps of P-positions and Grundy values, move trees, Cram boards, figures and sessions.");
                }
            });
        });
}
