"""Slow, obvious smooth predictive RM+ and extragradient RM+ (Cai, Farina, Grand-Clément, Kroer, Lee, Luo & Zheng
2023, "Last-iterate convergence properties of regret-matching algorithms in games", arXiv 2311.00676), in plain
Python lists, written from the paper; SPRM+ in the update order of the SOGRM authors' ``SPRMSolver``
(menglinjian/NeurIPS-2025-SOGRM, ``main.py``).

Both keep a regret state per player in Z = {R >= 0, sum R >= 1}, start at R = 1/n (or at a start x_1, which lies in
Z), and play strategies proportional to points of Z. ``Proj_Z`` clips at zero, unless the clipped sum is at most 1;
then it projects onto the simplex, by sorting (Duchi, Shalev-Shwartz, Singer & Chandra 2008), not the kernel's
active-set method. The regret vector of a player at a profile is ``r = u - x.u`` with ``u = A y`` (row) or
``u = B^T x`` (column).

- SPRM+, simultaneous, step eta: with r_t both players' regrets at the strategies (x_t, y_t) played at t,
  ``R_t = Proj_Z(R_{t-1} + eta r_t)``; then ``x_{t+1} = Proj_Z(R_t + eta r_t) / sum``.
- ExRM+: ``H = Proj_Z(R + eta r(R))``, then ``R <- Proj_Z(R + eta r(H))``, ``r(P)`` the regrets at the strategies
  ``P / sum P`` of both players; the iteration plays (x_H, y_H), and its last iterate is ``R / sum R``.
"""

from __future__ import annotations


def project_onto_simplex(values):
    """The Euclidean projection onto the simplex, by sorting."""
    ordered = sorted(values, reverse=True)
    running, theta = 0.0, 0.0
    for k, v in enumerate(ordered, start=1):
        running += v
        candidate = (running - 1.0) / k
        if v - candidate > 0:
            theta = candidate
    return [max(v - theta, 0.0) for v in values]


def project_onto_z(values):
    clipped = [max(v, 0.0) for v in values]
    return project_onto_simplex(values) if sum(clipped) <= 1.0 else clipped


def normalised(values):
    total = sum(values)
    return [v / total for v in values]


def regrets_at(A, B, x, y):
    """Each player's regret vector at (x, y): ``A y - x.A y`` and ``B^T x - y.B^T x``."""
    m, n = len(x), len(y)
    u1 = [sum(A[i][j] * y[j] for j in range(n)) for i in range(m)]
    u2 = [sum(B[i][j] * x[i] for i in range(m)) for j in range(n)]
    v1 = sum(p * u for p, u in zip(x, u1))
    v2 = sum(p * u for p, u in zip(y, u2))
    return [u - v1 for u in u1], [u - v2 for u in u2]


class SPRMSolver:
    """Smooth predictive RM+ in simultaneous self-play."""

    def __init__(self, A, B=None, eta=0.1, start=None):
        self.A = [list(map(float, row)) for row in A]
        self.B = [[-v for v in row] for row in self.A] if B is None else [list(map(float, row)) for row in B]
        m, n = len(self.A), len(self.A[0])
        self.eta = eta
        if start is None:
            self.R = [[1.0 / m] * m, [1.0 / n] * n]
        else:  # (a start on the simplex lies in Z: the first strategy is the start)
            self.R = [normalised(list(map(float, start[0]))), normalised(list(map(float, start[1])))]
        self.current = [normalised(self.R[0]), normalised(self.R[1])]

    def iterate(self):
        r = regrets_at(self.A, self.B, *self.current)
        self.R = [project_onto_z([R + self.eta * x for R, x in zip(self.R[p], r[p])]) for p in range(2)]
        predicted = [[R + self.eta * x for R, x in zip(self.R[p], r[p])] for p in range(2)]
        self.current = [normalised(project_onto_z(predicted[p])) for p in range(2)]


class ExRMSolver:
    """Extragradient RM+ in simultaneous self-play."""

    def __init__(self, A, B=None, eta=0.1):
        self.A = [list(map(float, row)) for row in A]
        self.B = [[-v for v in row] for row in self.A] if B is None else [list(map(float, row)) for row in B]
        m, n = len(self.A), len(self.A[0])
        self.eta = eta
        self.R = [[1.0 / m] * m, [1.0 / n] * n]
        self.played = None

    @property
    def current(self):
        return [normalised(self.R[0]), normalised(self.R[1])]

    def iterate(self):
        r = regrets_at(self.A, self.B, *self.current)
        half = [project_onto_z([R + self.eta * x for R, x in zip(self.R[p], r[p])]) for p in range(2)]
        self.played = [normalised(half[0]), normalised(half[1])]
        r = regrets_at(self.A, self.B, *self.played)
        self.R = [project_onto_z([R + self.eta * x for R, x in zip(self.R[p], r[p])]) for p in range(2)]


def duality_gap(A, x, y):
    """``max_i (A y)_i - min_j (x^T A)_j`` (zero-sum)."""
    m, n = len(x), len(y)
    return max(sum(A[i][j] * y[j] for j in range(n)) for i in range(m)) - min(
        sum(A[i][j] * x[i] for i in range(m)) for j in range(n)
    )
