import time

from bots import Player

PARAMS: dict = {}


class Sleeper(Player):
    def act(self, observation):
        time.sleep(3600)
