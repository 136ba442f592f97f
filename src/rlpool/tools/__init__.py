"""Tools around the pools.

The ``rlpool`` command (``cli``), the side-by-side benchmark (``bench``), a task's description
(``describe``), and the reference pages: their data types (``docpage``), the formatting both share
(``docformat``) and the generator (``docgen``).
"""
