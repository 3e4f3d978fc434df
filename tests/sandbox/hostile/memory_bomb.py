from bots import Player

PARAMS: dict = {}


class MemoryBomb(Player):
    def act(self, observation):
        hoard = []
        while True:
            hoard.append(bytearray(64 << 20))
