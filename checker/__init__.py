"""Game logs: read them, replay them, say what is wrong.

* ``log`` (with ``names``): the log format, parsed with positions;
  ``spec/log.schema.json`` publishes its shape;
* ``replay``: every move through the state machine, applied as played,
  with ``blame`` (which earlier move is behind a violation) — the one
  replay ``check`` and ``solve`` share;
* ``observed`` (with ``consistency``, the solver): the cards recorded in
  zones and every observation of a move;
* ``tokens`` (with ``ledger``, the exact search): hidden token values;
* ``ending``: the end of the game, scores and winners (``spec.scoring``);
  the last three are parts a rule file switches on (a deal, tokens, scoring);
* ``table``, ``htmlreport`` and ``endgame``: the picture of the table
  (``show``), the page stepping through a game (``report``), and the end of
  the game they show (scores, winners, what was revealed);
* ``check`` and ``report``: :func:`check.check_log` and its
  :class:`report.LogReport` (text, JSON, exit status);
* ``codes`` and ``rulecodes``: every code, for ``ruleslawyer explain``;
* ``writer``: a game written out as a log;
* ``recorder`` (with ``typed``: a move as typed, completed and respelt): ``play``.
"""
