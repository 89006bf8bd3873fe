extends Node2D
# Coin Hop's level: counts the coins, ends the level when all are collected or the player falls out.

signal level_won(score)
signal fell_out(y)

export var score = 0
var over = false


func _ready():
	for c in get_tree().get_nodes_in_group("coins"):
		c.connect("collected", self, "_on_coin_collected")


func _on_coin_collected(value):
	score += value
	if score >= 3 and not over:
		over = true
		emit_signal("level_won", score)


func _physics_process(_delta):
	if not over and $Player.position.y > 600:
		over = true
		emit_signal("fell_out", $Player.position.y)
