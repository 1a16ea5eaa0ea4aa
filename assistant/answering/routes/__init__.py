"""How a question reaches a calculator: one module per family of calculators, each with
the ``read`` functions its tools' ``Route`` declarations name (assistant/tools/spec.py).

A read function takes the question's words, the municipality and the request's
``RouteContext`` and returns ``Routed`` (the calculator and its arguments, every one
traced to the words), ``Missing`` (what to ask) or ``None`` (not this calculator).
"""
