"""Test game for the explorers: a corridor of LENGTH cells; LEFT/RIGHT key presses move the player one
cell. Reaching cell DEEP fails a probe check ("deep cell reached"): a random walk of a few dozen steps
practically never gets there, an explorer that returns to its farthest cell does."""
import pygame

from playtester import probe


def main(length: int = 30, deep: int = 20):
    pygame.init()
    screen = pygame.display.set_mode((length * 4, 16))
    clock = pygame.time.Clock()
    x = 0
    while True:
        for event in pygame.event.get():
            if event.type == pygame.KEYDOWN and event.key == pygame.K_RIGHT:
                x = min(length - 1, x + 1)
                probe.check(x < deep, "deep cell reached", x=x)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_LEFT:
                x = max(0, x - 1)
        probe.observe(x=x)
        probe.entity("player", "player", (x, 0))
        screen.fill((0, 0, 0))
        pygame.draw.rect(screen, (255, 255, 255), (x * 4, 4, 4, 8))
        pygame.display.flip()
        clock.tick(60)
