package dev.saccade.bench;

import java.awt.BorderLayout;
import java.awt.GridLayout;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

/**
 * A small Swing form (two fields, a combo box, a button and a table of 20 rows) that
 * {@code bench/run realapps} starts with the Java ATK wrapper: a Java desktop application left idle.
 */
public final class BenchSwingApp {
    static final String TITLE = "Saccade bench form";

    private BenchSwingApp() {
    }

    public static void main(final String[] args) {
        SwingUtilities.invokeLater(() -> {
            final JFrame frame = new JFrame(TITLE);
            final JPanel form = new JPanel(new GridLayout(0, 2));
            form.add(new JLabel("Name"));
            form.add(new JTextField(20));
            form.add(new JLabel("City"));
            form.add(new JTextField(20));
            form.add(new JLabel("Fruit"));
            form.add(new JComboBox<>(new String[] {"Apple", "Banana", "Cherry"}));
            form.add(new JLabel(""));
            form.add(new JButton("Save"));
            final Object[][] rows = new Object[20][];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = new Object[] {"Row " + (i + 1), Integer.toString(i * 7)};
            }
            frame.getContentPane().add(form, BorderLayout.NORTH);
            frame.getContentPane().add(new JScrollPane(new JTable(rows, new Object[] {"Name", "Value"})), BorderLayout.CENTER);
            frame.setDefaultCloseOperation(JFrame.EXIT_ON_CLOSE);
            frame.setSize(480, 420);
            frame.setVisible(true);
        });
    }
}
