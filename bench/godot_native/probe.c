/* bench/godot_native_probe.py's GDNative probe: a NativeScript class "PlaytesterProbe" (a Reference) with
 *   ent_json(list) -> String   the list (numbers, bools, [x, y] lists; anything else as null) as JSON, doubles
 *                              as %.17g
 *   ent_walk(list) -> int      the same walk over the list's Variants with no formatting: the C API's own cost
 * to measure what native code would save on the add-on's answer (bench/results/godot_native_probe.json). */
#include <gdnative_api_struct.gen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const godot_gdnative_core_api_struct *api = NULL;
static const godot_gdnative_ext_nativescript_api_struct *nsapi = NULL;
static char *buf = NULL;
static size_t cap = 0;

void GDN_EXPORT godot_gdnative_init(godot_gdnative_init_options *o) {
	api = o->api_struct;
	for (unsigned i = 0; i < api->num_extensions; i++)
		if (api->extensions[i]->type == GDNATIVE_EXT_NATIVESCRIPT)
			nsapi = (const godot_gdnative_ext_nativescript_api_struct *)api->extensions[i];
}

void GDN_EXPORT godot_gdnative_terminate(godot_gdnative_terminate_options *o) {
	(void)o;
	free(buf);
	buf = NULL;
	cap = 0;
}

static void *create(godot_object *inst, void *md) { (void)inst; (void)md; return NULL; }
static void destroy(godot_object *inst, void *md, void *ud) { (void)inst; (void)md; (void)ud; }

static void need(size_t len, size_t more) {
	if (len + more + 1 > cap) {
		cap = (len + more + 1) * 2;
		buf = realloc(buf, cap);
	}
}

static size_t write_list(const godot_array *list, size_t len) {
	int size = api->godot_array_size(list);
	need(len, 2);
	buf[len++] = '[';
	for (int i = 0; i < size; i++) {
		need(len, 40);
		if (i)
			buf[len++] = ',';
		godot_variant v = api->godot_array_get(list, i);
		switch (api->godot_variant_get_type(&v)) {
			case GODOT_VARIANT_TYPE_BOOL:
				len += (size_t)sprintf(buf + len, api->godot_variant_as_bool(&v) ? "true" : "false");
				break;
			case GODOT_VARIANT_TYPE_INT:
				len += (size_t)sprintf(buf + len, "%lld", (long long)api->godot_variant_as_int(&v));
				break;
			case GODOT_VARIANT_TYPE_REAL:
				len += (size_t)sprintf(buf + len, "%.17g", api->godot_variant_as_real(&v));
				break;
			case GODOT_VARIANT_TYPE_ARRAY: {  /* a Vector2 variable, as the add-on's _plain gives it: [x, y] */
				godot_array inner = api->godot_variant_as_array(&v);
				len = write_list(&inner, len);
				api->godot_array_destroy(&inner);
				break;
			}
			default:
				len += (size_t)sprintf(buf + len, "null");
		}
		api->godot_variant_destroy(&v);
	}
	need(len, 1);
	buf[len++] = ']';
	return len;
}

static godot_variant ent_json(godot_object *inst, void *md, void *ud, int n, godot_variant **args) {
	(void)inst; (void)md; (void)ud; (void)n;
	godot_array list = api->godot_variant_as_array(args[0]);
	size_t len = write_list(&list, 0);
	api->godot_array_destroy(&list);
	godot_string s = api->godot_string_chars_to_utf8_with_len(buf, (int)len);
	godot_variant out;
	api->godot_variant_new_string(&out, &s);
	api->godot_string_destroy(&s);
	return out;
}

static godot_variant ent_walk(godot_object *inst, void *md, void *ud, int n, godot_variant **args) {
	(void)inst; (void)md; (void)ud; (void)n;
	godot_array list = api->godot_variant_as_array(args[0]);
	int size = api->godot_array_size(&list);
	double sum = 0;
	for (int i = 0; i < size; i++) {
		godot_variant v = api->godot_array_get(&list, i);
		if (api->godot_variant_get_type(&v) == GODOT_VARIANT_TYPE_REAL)
			sum += api->godot_variant_as_real(&v);
		api->godot_variant_destroy(&v);
	}
	api->godot_array_destroy(&list);
	godot_variant out;
	api->godot_variant_new_int(&out, size + (sum != sum));  /* the sum is read, so the walk is not optimized away */
	return out;
}

void GDN_EXPORT godot_nativescript_init(void *handle) {
	godot_instance_create_func c = {create, NULL, NULL};
	godot_instance_destroy_func d = {destroy, NULL, NULL};
	godot_method_attributes a = {GODOT_METHOD_RPC_MODE_DISABLED};
	nsapi->godot_nativescript_register_class(handle, "PlaytesterProbe", "Reference", c, d);
	godot_instance_method j = {ent_json, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterProbe", "ent_json", a, j);
	godot_instance_method w = {ent_walk, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterProbe", "ent_walk", a, w);
}
