"""Tools around the pools.

The ``rlpool`` command (``cli``), the side-by-side benchmark (``bench``), a task's description
(``describe``) and the generated reference pages (``docgen``).
"""
