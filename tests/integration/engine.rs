//! The engine's slots and looks: one class's slow work blocks no other
//! class, and files written after the engine started are found.

use std::sync::Mutex;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use slidedb::pdb::{self, Partition};
use slidedb::{Board, Database, Event, Method, Shape};

/// While one class's table is being built (held at its `Built` event until
/// the test lets it go), a lookup in another class's open table answers.
#[test]
fn a_lookup_answers_while_another_class_is_built() {
    let two_by_five = Board::solved(Shape::new(2, 5).unwrap());
    let eight = Board::solved(Shape::EIGHT);
    let (inside_tx, inside_rx) = mpsc::channel::<()>();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let inside = Mutex::new(inside_tx);
    let go = Mutex::new(go_rx);
    let db = Database::in_memory()
        .build_missing_up_to(10)
        .on_event(move |event| {
            if let Event::Built { goal, .. } = event
                && goal.shape() == two_by_five.shape()
            {
                inside.lock().unwrap().send(()).unwrap();
                // Hold the 2x5 build here, its slot locked, until told.
                go.lock()
                    .unwrap()
                    .recv_timeout(Duration::from_secs(60))
                    .ok();
            }
        })
        .open()
        .unwrap();
    db.engine(&eight, Method::Exact).unwrap();

    let building = {
        let db = db.clone();
        thread::spawn(move || db.table(&two_by_five).map(|t| t.get().states()))
    };
    inside_rx.recv_timeout(Duration::from_secs(60)).unwrap();

    // The 2x5 build is held; the 3x3 lookup must not wait for it.
    let (answer_tx, answer_rx) = mpsc::channel();
    {
        let db = db.clone();
        thread::spawn(move || {
            let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
            answer_tx
                .send(db.solve(&board, &eight).map(|s| s.distance()))
                .ok();
        });
    }
    let answer = answer_rx.recv_timeout(Duration::from_secs(20));
    // A 2x5 lookup meanwhile is not ready: its slot is held.
    assert!(db.ready_engine(&two_by_five).is_none());
    go_tx.send(()).unwrap();
    assert_eq!(
        answer
            .expect("the 3x3 lookup waited for the 2x5 build")
            .unwrap(),
        Some(19)
    );
    assert_eq!(building.join().unwrap().unwrap(), 1_814_400);
    assert!(db.ready_engine(&two_by_five).unwrap().is_lookup());
}

/// Pattern databases written into the data folder after the engine looked
/// and found none are found without a new engine: as a server started
/// before `slidedb-gen` built them.
#[test]
fn pattern_databases_built_later_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::open(dir.path()).unwrap();
    let goal = Board::solved(Shape::new(4, 4).unwrap());
    assert!(db.patterns(&goal).unwrap().is_none());
    // Asked again at once: still none, and the folder unchanged.
    assert!(db.patterns(&goal).unwrap().is_none());

    let built = pdb::build(
        &goal,
        &Partition::standard(&goal, "4-4-4-3").unwrap(),
        |_| {},
    )
    .unwrap();
    let path = dir
        .path()
        .join(slidedb::pattern_file_name(&goal, "4-4-4-3"));
    std::fs::write(&path, built.as_bytes()).unwrap();

    // Found once the folder's change is seen (at once where modification
    // times are fine; within a few seconds where they are coarse).
    let deadline = Instant::now() + Duration::from_secs(10);
    let found = loop {
        if let Some(found) = db.patterns(&goal).unwrap() {
            break found;
        }
        assert!(Instant::now() < deadline, "never found {}", path.display());
        thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(found.source(), &slidedb::Source::File(path));
    let engine = db.engine(&goal, Method::Exact).unwrap();
    let board: Board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15".parse().unwrap();
    assert_eq!(engine.solve(&board).unwrap().distance(), Some(1));
}

/// A table renamed in the data folder is refused by its header, with the
/// name it should have: under the name of another shape of its class
/// (2x3 named as 3x2) when its own is missing, and under another class's
/// name (2x3 named as the 8-puzzle's).
#[test]
fn a_renamed_table_is_refused_with_the_name_it_should_have() {
    let dir = tempfile::tempdir().unwrap();
    let two_by_three = Board::solved(Shape::new(2, 3).unwrap());
    let bytes = slidedb::generate(&two_by_three, |_| {})
        .unwrap()
        .into_inner();
    let own = slidedb::default_file_name(&two_by_three);
    let three_by_two = Board::solved(Shape::new(3, 2).unwrap());
    let renamed = dir.path().join(slidedb::default_file_name(&three_by_two));
    assert_ne!(renamed, dir.path().join(&own));
    std::fs::write(&renamed, &bytes).unwrap();
    let db = Database::builder()
        .data_dir(dir.path())
        .build_missing_up_to(0)
        .open()
        .unwrap();
    let Err(e) = db.engine(&three_by_two, Method::Exact) else {
        panic!("refused")
    };
    assert_eq!(
        e.to_string(),
        format!(
            "{} holds the full distance table for 2x3 goal {two_by_three}: rename it to {own}, the name a data folder keeps it under",
            renamed.display()
        )
    );
    // Renamed as it says, it answers.
    std::fs::rename(&renamed, dir.path().join(&own)).unwrap();
    let db = Database::builder()
        .data_dir(dir.path())
        .build_missing_up_to(0)
        .open()
        .unwrap();
    assert!(db.engine(&three_by_two, Method::Exact).is_ok());
    // Under the 8-puzzle's name: it holds another class's table.
    let eight = Board::solved(Shape::EIGHT);
    let wrong = dir.path().join(slidedb::default_file_name(&eight));
    std::fs::write(&wrong, &bytes).unwrap();
    let Err(e) = db.engine(&eight, Method::Exact) else {
        panic!("refused")
    };
    assert_eq!(
        e.to_string(),
        format!(
            "{} holds the full distance table for 2x3 goal {two_by_three}: rename it to {own}, the name a data folder keeps it under",
            wrong.display()
        )
    );
}
