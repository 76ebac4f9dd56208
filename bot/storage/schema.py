"""The schema, as versioned migrations written once (in SQLite's words) for both databases.

:func:`for_postgres` translates a migration's types for PostgreSQL: every whole number
becomes 64-bit (Discord ids need it), row ids become identity columns, and ``REAL`` a
double. Everything else in the scripts is SQL both databases speak alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from bot.storage.players import players_build_step
from bot.storage.rating_writes import global_build_step
from bot.storage.sql import Computed

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        host_id     INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        message_id  INTEGER,
        ping_id     INTEGER,
        deadline    REAL,
        timer       TEXT,
        last_move   TEXT    NOT NULL DEFAULT '',
        extra       TEXT    NOT NULL DEFAULT '{}',
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX games_one_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE moves (
        id       INTEGER PRIMARY KEY,
        game_id  INTEGER NOT NULL REFERENCES games(id),
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        card     TEXT    NOT NULL,
        taken    TEXT    NOT NULL,
        auto     INTEGER NOT NULL DEFAULT 0,
        at       REAL    NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL REFERENCES games(id),
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        target      INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        side        INTEGER NOT NULL,
        won         INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        tabbar      INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX results_board ON results(guild_id, variant, target);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # version 2: results against computer players, and matches played with hints
    """
    ALTER TABLE results ADD COLUMN vs_computer INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    DROP INDEX results_board;
    CREATE INDEX results_board ON results(guild_id, vs_computer, variant, target);
    """,
    # version 3: the language a server's admin chose for the bot's public messages
    """
    CREATE TABLE guild_settings (
        guild_id    INTEGER NOT NULL PRIMARY KEY,
        language    TEXT    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    """,
    # version 4: the durable outbox: what a game's channel must still be shown, written in
    # the transaction of the change it shows and deleted once it is posted
    """
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        is_table    INTEGER NOT NULL DEFAULT 0,
        body        TEXT    NOT NULL,
        created_at  REAL    NOT NULL
    );
    CREATE INDEX outbox_game ON outbox(game_id, is_table);
    """,
    # version 5: the card deck (two- or four-colour faces) a server chose for its public
    # messages (kind 'guild') and a player for their private views (kind 'user'); no row:
    # the default
    """
    CREATE TABLE deck_styles (
        kind        TEXT    NOT NULL,
        subject_id  INTEGER NOT NULL,
        style       TEXT    NOT NULL,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (kind, subject_id)
    );
    """,
    # version 6: skill ratings per server, variant and board ('people', or 'computers'
    # for matches with a computer at the table), each change kept (for the profile's
    # picture, the rebuild, and exactly-once: one change per match and person), and what a
    # result adds for the profile (rounds played, rounds the side took storan and lillan,
    # aces taken, who sat on each side)
    """
    ALTER TABLE results ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN storan INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN lillan INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN aces INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN lineup TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_player ON results(guild_id, user_id, finished_at, game_id, won, variant);
    CREATE INDEX results_totals ON results(guild_id, user_id, variant, vs_computer, won, points,
        tabbar, rounds, storan, lillan, aces);
    CREATE TABLE ratings (
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        board       TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        matches     INTEGER NOT NULL,
        wins        INTEGER NOT NULL,
        hinted      INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (guild_id, variant, board, user_id)
    );
    CREATE TABLE rating_changes (
        id           INTEGER PRIMARY KEY,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        guild_id     INTEGER NOT NULL,
        variant      TEXT    NOT NULL,
        board        TEXT    NOT NULL,
        user_id      INTEGER NOT NULL,
        seq          INTEGER NOT NULL,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        at           REAL    NOT NULL,
        UNIQUE (game_id, user_id, board)
    );
    CREATE INDEX rating_changes_order ON rating_changes(guild_id, variant, board, seq);
    CREATE INDEX rating_changes_player ON rating_changes(guild_id, user_id, board, variant, seq);
    """,
    # version 7: each move's round and its full form (Move.to_dict JSON), which replay it
    # exactly (rows from before have neither: such games cannot be replayed); one row per
    # finished match (the history's page: seats, final scores and winner as JSON) and one
    # per person who sat in it, with the indices a history page is read by, newest first
    """
    ALTER TABLE moves ADD COLUMN round INTEGER;
    ALTER TABLE moves ADD COLUMN move TEXT;
    CREATE TABLE finished (
        game_id     INTEGER NOT NULL PRIMARY KEY REFERENCES games(id),
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        finished_at REAL    NOT NULL,
        summary     TEXT    NOT NULL
    );
    CREATE INDEX finished_guild ON finished(guild_id, finished_at DESC, game_id DESC);
    CREATE INDEX finished_guild_variant
        ON finished(guild_id, variant, finished_at DESC, game_id DESC);
    CREATE TABLE finished_players (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX finished_players_member
        ON finished_players(guild_id, user_id, finished_at DESC, game_id DESC);
    CREATE INDEX finished_players_member_variant
        ON finished_players(guild_id, user_id, variant, finished_at DESC, game_id DESC);
    """,
    # version 8: one row per ``/kasino forget-me``, written in its transaction and naming
    # nobody: its highest id tells every process (shards too) that a person was forgotten,
    # so each drops what it keeps in memory about people (cogs/records/forgetting.py)
    """
    CREATE TABLE forgotten (
        id INTEGER PRIMARY KEY,
        at REAL    NOT NULL
    );
    """,
    # version 9: each move's hash in the game's sealed log (bot.records.seal), chained to
    # the move before it; NULL in games dealt before moves were sealed
    """
    ALTER TABLE moves ADD COLUMN seal TEXT;
    """,
    # version 10: a finished match's analysis of one seat's moves (bot.analysis: the
    # Analysis as JSON, of ANALYSIS_VERSION ``version``), computed once, shown privately to
    # whoever sat there; it names nobody (a seat, moves and reasons), and forgetting a
    # person deletes the analyses of the seats they sat in
    """
    CREATE TABLE analyses (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        seat        INTEGER NOT NULL,
        version     INTEGER NOT NULL,
        body        TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    """,
    # version 11: the puzzle of the day per server and family (bot.puzzles: the Puzzle as
    # JSON, chosen once and kept all day, so everyone in the server gets the same), and
    # each person's row for it: written when they open it with the command in that server
    # (``move`` empty), filled by their first answer (later tries do not count);
    # forgetting a person deletes their rows
    """
    CREATE TABLE puzzle_days (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        family      TEXT    NOT NULL,
        day         TEXT    NOT NULL,
        puzzle      TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        UNIQUE (guild_id, family, day)
    );
    CREATE TABLE puzzle_attempts (
        puzzle_id   INTEGER NOT NULL REFERENCES puzzle_days(id),
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        day         TEXT    NOT NULL,
        move        TEXT    NOT NULL,
        solved      INTEGER NOT NULL,
        at          REAL    NOT NULL,
        PRIMARY KEY (puzzle_id, user_id)
    );
    CREATE INDEX puzzle_attempts_member ON puzzle_attempts(guild_id, user_id, solved, day);
    """,
    # version 12: each person's place in each lesson (/kasino learn, bot.lessons): the step
    # they are at, a version that every answered step bumps (a stale menu is refused), and
    # whether they finished it. A person's rows go with /kasino forget-me.
    """
    CREATE TABLE lesson_progress (
        id         INTEGER PRIMARY KEY,
        user_id    INTEGER NOT NULL,
        lesson     TEXT    NOT NULL,
        step       INTEGER NOT NULL DEFAULT 0,
        version    INTEGER NOT NULL DEFAULT 1,
        finished   INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL,
        UNIQUE (user_id, lesson)
    );
    """,
    # version 13: tournaments (bot.tournaments, bot.storage.tournaments): one row per
    # tournament (its Settings as JSON, its phase and round, a version every save bumps:
    # compare-and-set), at most one open per channel; its entrants in join order; its
    # tables per round (players as a JSON list, null for a computer filler; the Result as
    # JSON once decided); and each person's final place, written when it finishes, which
    # the server's tournaments board and the profile read. Forgetting a person gives their
    # entrant, table and place a nameless negative id (the others' standings still add up).
    """
    CREATE TABLE tournaments (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        channel_id   INTEGER NOT NULL,
        organiser_id INTEGER NOT NULL,
        name         TEXT    NOT NULL,
        variant      TEXT    NOT NULL,
        settings     TEXT    NOT NULL,
        phase        TEXT    NOT NULL,
        round        INTEGER NOT NULL DEFAULT 0,
        seed         TEXT    NOT NULL,
        message_id   INTEGER,
        deadline     REAL,
        version      INTEGER NOT NULL DEFAULT 0,
        extra        TEXT    NOT NULL DEFAULT '{}',
        created_at   REAL    NOT NULL,
        finished_at  REAL,
        updated_at   REAL    NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_one_open_per_channel ON tournaments(channel_id)
        WHERE phase IN ('signup', 'running', 'paused');
    CREATE INDEX tournaments_open ON tournaments(guild_id)
        WHERE phase IN ('signup', 'running', 'paused');
    CREATE TABLE tournament_entrants (
        id            INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        user_id       INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        rating        REAL    NOT NULL DEFAULT 0,
        dropped       INTEGER,
        joined_at     REAL    NOT NULL,
        UNIQUE (tournament_id, user_id)
    );
    CREATE INDEX tournament_entrants_member ON tournament_entrants(user_id);
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round         INTEGER NOT NULL,
        number        INTEGER NOT NULL,
        players       TEXT    NOT NULL,
        game_id       INTEGER,
        thread_id     INTEGER,
        result        TEXT,
        PRIMARY KEY (tournament_id, round, number)
    );
    CREATE INDEX tournament_tables_game ON tournament_tables(game_id)
        WHERE game_id IS NOT NULL;
    CREATE TABLE tournament_places (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        user_id       INTEGER NOT NULL,
        guild_id      INTEGER NOT NULL,
        place         INTEGER NOT NULL,
        finished_at   REAL    NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE INDEX tournament_places_board ON tournament_places(guild_id, user_id, place);
    CREATE INDEX tournament_places_member
        ON tournament_places(guild_id, user_id, finished_at DESC, tournament_id DESC);
    """,
    # version 14: each outbox row's random key, written with the row, from which its post's
    # Discord nonce is made (bot.nonces): unique however the row's id is reused (SQLite
    # gives a drained outbox's ids again; a restored backup its sequence). A row written
    # before has none and is given one made of its id and time (bot.nonces.legacy_key).
    """
    ALTER TABLE outbox ADD COLUMN nonce_key TEXT;
    """,
    # version 15: global ratings (bot.records.ratings.GLOBAL, guild id 0) beside each
    # server's: a server's match now has two changes per person and board, one per scope,
    # so exactly-once is per scope: UNIQUE (game_id, user_id, board) becomes UNIQUE
    # (game_id, guild_id, user_id, board). Neither database can change a table's UNIQUE
    # constraint in words both speak, so the table is copied (its ids renumbered in their
    # order: nothing refers to them, and the new ids come from the new table's own
    # counter on both databases); then COMPUTED[15] rates every stored match globally.
    """
    CREATE TABLE rating_changes_scoped (
        id           INTEGER PRIMARY KEY,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        guild_id     INTEGER NOT NULL,
        variant      TEXT    NOT NULL,
        board        TEXT    NOT NULL,
        user_id      INTEGER NOT NULL,
        seq          INTEGER NOT NULL,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        at           REAL    NOT NULL,
        UNIQUE (game_id, guild_id, user_id, board)
    );
    INSERT INTO rating_changes_scoped (game_id, guild_id, variant, board, user_id, seq,
        mu_before, sigma_before, mu_after, sigma_after, at)
        SELECT game_id, guild_id, variant, board, user_id, seq, mu_before, sigma_before,
        mu_after, sigma_after, at FROM rating_changes ORDER BY id;
    DROP TABLE rating_changes;
    ALTER TABLE rating_changes_scoped RENAME TO rating_changes;
    CREATE INDEX rating_changes_order ON rating_changes(guild_id, variant, board, seq);
    CREATE INDEX rating_changes_player ON rating_changes(guild_id, user_id, board, variant, seq);
    """,
    # version 16: how a post reaches its channel (bot.stages): 'channel', posted by the
    # channel's worker, or 'interaction', carried by the next click at the game's table
    # (a group DM, a server where the app is only user-installed)
    """
    ALTER TABLE outbox ADD COLUMN courier TEXT NOT NULL DEFAULT 'channel';
    CREATE INDEX outbox_courier ON outbox(channel_id, courier);
    """,
    # version 17: the other places a game is shown besides its own channel (bot.stages): a
    # ladder match's second player's table, in their server's channel (or group DM), with
    # the seats that sit there and its own table message
    """
    CREATE TABLE stages (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        courier     TEXT    NOT NULL DEFAULT 'channel',
        seats       TEXT    NOT NULL DEFAULT '[]',
        locale      TEXT,
        message_id  INTEGER,
        ping_id     INTEGER,
        PRIMARY KEY (game_id, channel_id)
    );
    CREATE INDEX stages_channel ON stages(channel_id);
    -- a conversation's finished matches (its history outside servers) by its channel
    CREATE INDEX games_channel ON games(channel_id);
    """,
    # version 18: the ladder (bot.ladder, bot.storage.ladder): the pool, one entry per
    # person (where they wait, the name and global rating they joined with, their waiting
    # message, when the computer was offered to them); blocks; who met whom in each
    # person's last ladder matches; abandoned ladder matches (once per match) that pause
    # queueing; the servers whose admin turned the ladder off (a table of its own:
    # guild_settings' rows are deleted when a server goes back to its own language)
    """
    CREATE TABLE ladder_queue (
        user_id     INTEGER NOT NULL PRIMARY KEY,
        variant     TEXT    NOT NULL,
        players     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        courier     TEXT    NOT NULL DEFAULT 'channel',
        name        TEXT    NOT NULL,
        rating      REAL    NOT NULL,
        joined_at   REAL    NOT NULL,
        message_id  INTEGER,
        locale      TEXT,
        offered_at  REAL
    );
    CREATE INDEX ladder_queue_game ON ladder_queue(variant, players, joined_at);
    CREATE INDEX ladder_queue_guild ON ladder_queue(guild_id);
    CREATE TABLE ladder_blocks (
        user_id     INTEGER NOT NULL,
        blocked_id  INTEGER NOT NULL,
        at          REAL    NOT NULL,
        PRIMARY KEY (user_id, blocked_id)
    );
    CREATE INDEX ladder_blocks_blocked ON ladder_blocks(blocked_id);
    CREATE TABLE ladder_recent (
        user_id     INTEGER NOT NULL,
        other_id    INTEGER NOT NULL,
        paired_at   REAL    NOT NULL,
        PRIMARY KEY (user_id, other_id)
    );
    CREATE INDEX ladder_recent_other ON ladder_recent(other_id);
    CREATE TABLE ladder_abandons (
        user_id     INTEGER NOT NULL,
        game_id     INTEGER NOT NULL,
        at          REAL    NOT NULL,
        PRIMARY KEY (user_id, game_id)
    );
    CREATE TABLE ladder_off (
        guild_id    INTEGER NOT NULL PRIMARY KEY,
        updated_at  REAL    NOT NULL
    );
    """,
    # version 19: table talk at ladder matches (bot.storage.talk): who muted it, and when
    # each person last said a line (one line per person every few seconds)
    """
    CREATE TABLE table_talk (
        user_id     INTEGER NOT NULL PRIMARY KEY,
        muted       INTEGER NOT NULL DEFAULT 0,
        said_at     REAL
    );
    """,
    # version 20: who sits where: one row per person seated in an active game (a lobby or
    # a match in play), written in the transaction of the game's save whenever its seats
    # or status change and deleted when it ends, so ``/kasino games`` reads a person's
    # games everywhere (servers, DMs, group DMs, the ladder) from one index; COMPUTED[20]
    # fills it for the games already active
    """
    CREATE TABLE game_players (
        user_id     INTEGER NOT NULL,
        game_id     INTEGER NOT NULL REFERENCES games(id),
        PRIMARY KEY (user_id, game_id)
    );
    CREATE INDEX game_players_game ON game_players(game_id);
    """,
    # version 21: each person's notice settings for correspondence games
    # (bot.correspondence.prefs, bot.storage.notices), only for people who changed
    # something: how they are told of their turn, their zone, quiet hours and digest hour
    # (local), whether Discord refused the bot's DM, their vacation, when their last daily
    # digest went and in which language (their client's when they last chose)
    """
    CREATE TABLE notice_prefs (
        user_id         INTEGER NOT NULL PRIMARY KEY,
        how             TEXT    NOT NULL DEFAULT 'mention',
        tz              TEXT    NOT NULL DEFAULT 'UTC',
        quiet_start     INTEGER,
        quiet_end       INTEGER,
        digest_hour     INTEGER NOT NULL DEFAULT 18,
        dm_refused      INTEGER NOT NULL DEFAULT 0,
        away_until      REAL,
        away_month      TEXT,
        away_days       INTEGER NOT NULL DEFAULT 0,
        digest_sent_at  REAL,
        locale          TEXT,
        updated_at      REAL    NOT NULL
    );
    """,
)

# Steps of a migration computed in Python, run in its transaction after its statements
# (by the migration's number): the global ratings of the matches stored before them; who
# sits in the games active before the index of seats.
COMPUTED: dict[int, Callable[[], list[Computed]]] = {
    15: lambda: [global_build_step()],
    20: lambda: [players_build_step()],
}

# The tables in the order a copy must fill them (a move or a result names its game), and the
# tables whose ``id`` is generated (PostgreSQL's counter must move past copied ids).
TABLES: tuple[str, ...] = (
    "games", "game_players", "moves", "results", "meta", "guild_settings", "outbox",
    "deck_styles", "stages",
    "ratings", "rating_changes",
    "finished", "finished_players", "forgotten",
    "analyses",
    "puzzle_days", "puzzle_attempts", "lesson_progress",
    "tournaments", "tournament_entrants", "tournament_tables", "tournament_places",
    "ladder_queue", "ladder_blocks", "ladder_recent", "ladder_abandons", "ladder_off",
    "table_talk", "notice_prefs",
)  # fmt: skip
ID_TABLES: tuple[str, ...] = (
    "games", "moves", "results", "outbox", "rating_changes", "forgotten",
    "puzzle_days", "lesson_progress",
    "tournaments", "tournament_entrants",
)  # fmt: skip

_POSTGRES_TYPES = (
    (re.compile(r"\bINTEGER PRIMARY KEY\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
)


def statements(script: str) -> Iterator[str]:
    """A migration's statements, one by one."""
    for part in script.split(";"):
        if part.strip():
            yield part.strip()


def for_postgres(statement: str) -> str:
    """A migration statement with PostgreSQL's types."""
    for pattern, replacement in _POSTGRES_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement
