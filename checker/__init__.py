"""Game logs: read them, replay them, say what is wrong.

* ``log`` (with ``names``): the log format, parsed with positions;
  ``spec/log.schema.json`` publishes its shape;
* ``replay``: every move through the state machine, applied as played,
  with ``blame`` (which earlier move is behind a violation);
* ``verdicts`` (with ``consistency``, the solver): evidence and verdicts;
* ``counters`` (with ``hidden``, the exact search): counter values;
* ``ending``: the end of the game, scores and winners (``spec.scoring``);
* ``check`` and ``report``: :func:`check.check_log` and its
  :class:`report.LogReport` (text, JSON, exit status);
* ``codes`` and ``rulecodes``: every code, for ``ruleslawyer explain``;
* ``writer``: a game written out as a log.
"""
