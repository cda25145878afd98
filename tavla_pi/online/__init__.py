"""Online play: a seat whose opponent plays on a game server (bgammon.org): what a server
says (:mod:`~tavla_pi.online.model`), bgammon.org's protocol
(:mod:`~tavla_pi.online.protocol`), its board as the rules' positions and plays
(:mod:`~tavla_pi.online.board`) and the connection on its own thread
(:mod:`~tavla_pi.online.connection`).  The seat itself is in ``game``."""
