package dev.saccade.pixel;

/**
 * One word Tesseract read: its text, its box in the image it read, the text line it belongs to
 * (numbered in reading order within one call) and its confidence, 0 to 100.
 */
record OcrWord(String text, int x, int y, int width, int height, int line, float confidence) {
}
