import os
import sys

from bots import Player

PARAMS: dict = {}


# set by the runtime itself: numerical libraries stay single-threaded
RUNTIME_OWN = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


class Environment(Player):
    def act(self, observation):
        if dict(os.environ) != RUNTIME_OWN:
            raise RuntimeError(f"ESCAPED: environment {dict(os.environ)}")
        print("blocked: the environment is empty of the host's variables", file=sys.stderr)
        return self.rng.choice(observation.legal_actions)
