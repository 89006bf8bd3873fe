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


# playtester's plans call this hook (teleport navigation) through the add-on, between two steps; a game
# run without playtester never calls it.
func playtester_teleport(x, y):
	$Player.position = Vector2(x, y)
	$Player.velocity = Vector2()
	return true


# the tiles (1 px) the teleport may put the player on: the open air of the level (rows top to bottom), so a plan
# teleports next to a target, never into the walls or below the floor.
func playtester_walkable():
	var rows := []
	for y in range(240):
		var row := []
		for x in range(320):
			row.append(y < 214 and x > 12 and x < 308)
		rows.append(row)
	return rows
